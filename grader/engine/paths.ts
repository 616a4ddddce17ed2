/** Where things live, relative to the repository root. No TensorFlow.js here: the CLI imports it. */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Set only inside a learner's grading bundle (bundle.ts defines it): the folder holding the copies of
 * the data files grading reads there (fixtures without their expected values), since the learner's
 * process may not read datasets/ itself.
 */
declare const __COURSE_LEARNER_DATA__: string | undefined;
const DATA_ROOT = typeof __COURSE_LEARNER_DATA__ === "string" ? __COURSE_LEARNER_DATA__ : ROOT;

export const paths = {
  lessons: join(ROOT, "lessons"),
  exercises: join(ROOT, "exercises"),
  solutions: join(ROOT, "solutions"),
  graders: join(ROOT, "grader", "lessons"),
  mutants: join(ROOT, "grader", "mutants"),
  fixtures: join(DATA_ROOT, "datasets", "fixtures"),
  /** Frozen expectations, in a student edition (written by `npm run release`). */
  expected: join(ROOT, "grader", "expected"),
  /** The untouched stubs, in a student edition (what `npm run reset` restores without solutions/). */
  pristineStubs: join(ROOT, "stubs"),
};

/** Lesson ids that have a grader (grader/lessons/lesson-NN.ts), sorted by number. */
export function gradedLessons(): string[] {
  if (!existsSync(paths.graders)) return [];
  return readdirSync(paths.graders)
    .filter((f) => /^lesson-\d+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
}

/** The mutant files of a lesson (grader/mutants/lesson-NN/*.ts), sorted; `_*.ts` are their shared helpers. */
export function mutantFiles(lesson: string): string[] {
  const dir = join(paths.mutants, lesson);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_"))
    .sort()
    .map((f) => join(dir, f));
}
