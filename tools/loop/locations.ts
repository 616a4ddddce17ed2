/**
 * Where the learner's loop reads and writes. Two environment variables point it elsewhere (the
 * tests use them; so can a teacher keeping several learners' work in one clone):
 *
 * - COURSE_EXERCISES_DIR: the folder holding lesson-NN/*.ts instead of exercises/. It must sit
 *   directly inside the repository root, like exercises/, so that the files' `../../lib/…`
 *   imports still resolve.
 * - COURSE_PROGRESS_FILE: the progress file instead of .course-progress.json at the root.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, paths } from "../../grader/engine/paths.js";
import { UsageError } from "./cli-support.js";

/** The learner's exercises folder (exercises/ unless COURSE_EXERCISES_DIR says otherwise). */
export function exercisesDir(): string {
  const override = process.env.COURSE_EXERCISES_DIR;
  if (!override) return paths.exercises;
  const dir = resolve(override);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`COURSE_EXERCISES_DIR=${override}: no such folder`);
  if (dirname(dir) !== ROOT) {
    throw new UsageError(`COURSE_EXERCISES_DIR=${override} must be a folder directly inside ${ROOT}, like exercises/, so that its imports of lib/ resolve`);
  }
  return dir;
}

/** The learner's folder of one lesson, e.g. exercises/lesson-23. */
export function lessonExercisesDir(lesson: string): string {
  return join(exercisesDir(), lesson);
}

/** The progress file (.course-progress.json at the root unless COURSE_PROGRESS_FILE is set). */
export function progressFile(): string {
  const override = process.env.COURSE_PROGRESS_FILE;
  return override ? resolve(override) : join(ROOT, ".course-progress.json");
}

/** A path as the learner should read it: relative to the repository root. */
export function shown(file: string): string {
  return relative(ROOT, file) || ".";
}
