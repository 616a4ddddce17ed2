/**
 * Where the learner's loop reads and writes. Two environment variables point it elsewhere (the
 * tests use them; so can a teacher keeping several learners' work in one clone):
 *
 * - COURSE_EXERCISES_DIR: the folder holding lesson-NN/*.ts instead of exercises/. It must be a
 *   learner workspace directly inside the repository root, like exercises/, so that the files'
 *   `../../lib/…` imports still resolve: a folder whose lesson-NN folders hold .ts files, or an
 *   empty new one. The course's own folders (solutions/ above all: grading the reference as the
 *   learner's work would record a pass nobody earned) are refused.
 * - COURSE_PROGRESS_FILE: the progress file instead of .course-progress.json at the root. A .json
 *   file in an existing folder, outside the exercises, the solutions and the course's source
 *   folders; whether an existing file really is a progress file is checked when it is read
 *   (progress.ts), so that no other file is ever overwritten with JSON.
 *
 * Both are refused with a UsageError (exit 2), before anything is graded or written.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ROOT, paths } from "../../grader/engine/paths.js";
import { UsageError } from "./cli-support.js";

/** The repository's folders that belong to the course, not to a learner. */
export const COURSE_FOLDERS: readonly string[] = [
  "lib",
  "grader",
  "tools",
  "labs",
  "lessons",
  "datasets",
  "test",
  "solutions",
  "node_modules",
  "docs",
  ".git",
  ".ci",
  ".backups",
  "site",
];

/** Files at the repository root that look like JSON but belong to the course. */
const COURSE_ROOT_FILE = /^(package(-lock)?|tsconfig(\..*)?|\.?npm-shrinkwrap)\.json$/i;

const LESSON_FOLDER = /^lesson-\d+$/;

/** The real path of `p` (symbolic links resolved); of its nearest existing ancestor when it does not exist. */
function realish(p: string): string {
  const missing: string[] = [];
  let at = p;
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) break;
    missing.unshift(basename(at));
    at = up;
  }
  return join(realpathSync(at), ...missing);
}

const REAL_ROOT = realpathSync(ROOT);

/** `p` relative to the repository root, or undefined when it lies outside it. */
function insideRoot(real: string): string | undefined {
  const rel = relative(REAL_ROOT, real);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel)) ? rel : undefined;
}

/** True when `dir` is a learner workspace: its lesson-NN folders hold .ts files, or it is empty. */
function isWorkspace(dir: string): boolean {
  const entries = readdirSync(dir);
  if (entries.length === 0) return true;
  return entries.some((e) => {
    const lessonDir = join(dir, e);
    return LESSON_FOLDER.test(e) && statSync(lessonDir).isDirectory() && readdirSync(lessonDir).some((f) => f.endsWith(".ts"));
  });
}

/** The learner's exercises folder (exercises/ unless COURSE_EXERCISES_DIR says otherwise). */
export function exercisesDir(): string {
  const override = process.env.COURSE_EXERCISES_DIR;
  if (!override) return paths.exercises;
  const dir = resolve(override);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`COURSE_EXERCISES_DIR=${override}: no such folder`);
  const real = realpathSync(dir);
  if (dirname(real) !== REAL_ROOT) {
    throw new UsageError(`COURSE_EXERCISES_DIR=${override} must be a folder directly inside ${ROOT}, like exercises/, so that its imports of lib/ resolve`);
  }
  if (COURSE_FOLDERS.includes(basename(real))) {
    const why = basename(real) === "solutions" ? "it holds the reference solutions, and grading them as your work would record a pass you did not earn" : "it is one of the course's own folders";
    throw new UsageError(`COURSE_EXERCISES_DIR=${override} is not a learner workspace: ${why}. Point it at exercises/ or at a folder of your own (lesson-NN/*.ts, or empty).`);
  }
  if (!isWorkspace(real)) {
    throw new UsageError(`COURSE_EXERCISES_DIR=${override} is not a learner workspace: a workspace holds lesson-NN folders of .ts files (or is empty, to start one).`);
  }
  return dir;
}

/** The learner's folder of one lesson, e.g. exercises/lesson-23. */
export function lessonExercisesDir(lesson: string): string {
  return join(exercisesDir(), lesson);
}

/**
 * Checks that `file` may hold the progress file and returns its real path: a .json file whose
 * folder exists, outside the exercises (exercises/, COURSE_EXERCISES_DIR, any lesson-NN folder),
 * the solutions and the course's source folders, and not one of the course's own root files.
 * `label` names where the path came from, for the message. Throws a UsageError otherwise.
 */
export function checkProgressPath(file: string, label = file): string {
  const refuse = (why: string): never => {
    throw new UsageError(`${label}: ${why}. Choose a new .json file outside the course's folders, e.g. COURSE_PROGRESS_FILE=.course-progress.json (the default).`);
  };
  const full = resolve(file);
  if (!full.toLowerCase().endsWith(".json")) refuse("a progress file is a .json file");
  if (!existsSync(dirname(full)) || !statSync(dirname(full)).isDirectory()) refuse(`the folder ${dirname(full)} does not exist (it is not created for you)`);
  if (existsSync(full) && statSync(full).isDirectory()) refuse("that is a folder");
  const real = realish(full);
  const rel = insideRoot(real);
  if (rel !== undefined) {
    const parts = rel.split(sep);
    if (parts.length === 1 && COURSE_ROOT_FILE.test(parts[0])) refuse("that is one of the course's own files");
    if (parts.length > 1 && COURSE_FOLDERS.includes(parts[0])) refuse(`it lies inside the course's ${parts[0]}/ folder`);
    if (parts.length > 1 && parts[0] === "exercises") refuse("it lies inside exercises/, your work");
  }
  if (real.split(sep).slice(0, -1).some((p) => LESSON_FOLDER.test(p))) refuse("it lies inside a lesson-NN folder of exercise files");
  const workspace = process.env.COURSE_EXERCISES_DIR;
  if (workspace) {
    const ws = realish(resolve(workspace));
    if (real.startsWith(ws + sep)) refuse(`it lies inside COURSE_EXERCISES_DIR (${workspace}), the exercises being graded`);
  }
  return real;
}

/** The progress file (.course-progress.json at the root unless COURSE_PROGRESS_FILE is set). */
export function progressFile(): string {
  const override = process.env.COURSE_PROGRESS_FILE;
  if (!override) return join(ROOT, ".course-progress.json");
  return checkProgressPath(override, `COURSE_PROGRESS_FILE=${override}`);
}

/** A path as the learner should read it: relative to the repository root. */
export function shown(file: string): string {
  return relative(file.startsWith(REAL_ROOT + sep) ? REAL_ROOT : ROOT, file) || ".";
}
