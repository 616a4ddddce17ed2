/**
 * The course's grader as lib/resolver.ts asks it. lib/ is the ground floor and imports nothing
 * above it, so this module is connected instead (`connectGrading`, which the course's commands call
 * through runCommand): the learner's folder, and whether one learner function passes, from a fresh
 * progress record or else the isolated grader (a child process with a watchdog).
 */
import { resolve } from "node:path";
import type { LearnerVerdict } from "../../lib/resolver.js";
import { paths } from "../../grader/engine/paths.js";
import { gradeLesson } from "./grading.js";
import { exercisesDir } from "./locations.js";
import { readProgress, recordIsFresh } from "./progress.js";

export { exercisesDir };

/** Runs `fn` with COURSE_EXERCISES_DIR pointing at `dir` (the grading and progress modules read it). */
function inExercisesDir<T>(dir: string, fn: () => T): T {
  const previous = process.env.COURSE_EXERCISES_DIR;
  const isDefault = resolve(dir) === paths.exercises;
  if (isDefault) delete process.env.COURSE_EXERCISES_DIR;
  else process.env.COURSE_EXERCISES_DIR = dir;
  try {
    return fn();
  } finally {
    if (previous === undefined) delete process.env.COURSE_EXERCISES_DIR;
    else process.env.COURSE_EXERCISES_DIR = previous;
  }
}

/** Whether the learner's `name` (of `lesson`, in the workspace `dir`) passes every case. */
export async function learnerVerdict(lesson: string, name: string, dir: string, caseTimeoutMs: number): Promise<LearnerVerdict> {
  const saved = readProgress().lessons[lesson];
  if (inExercisesDir(dir, () => recordIsFresh(lesson, saved))) {
    const f = saved.functions[name];
    if (f) return { verdict: f.verdict, passed: f.passed, total: f.total };
  }
  const graded = await inExercisesDir(dir, () => gradeLesson(lesson, { only: name, caseTimeoutMs }));
  if (graded.run.fatal) return { fatal: graded.run.fatal.message };
  const s = graded.summaries.find((x) => x.exercise === name);
  return s ? { verdict: s.verdict, passed: s.passed, total: s.total } : { noCases: true };
}
