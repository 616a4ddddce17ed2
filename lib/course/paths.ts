/**
 * Where the course's top-level folders are. The ground floor's own copy of the root: lib/ reads no
 * module of grader/ or tools/. Two levels below the root, like grader/engine/, so that the root
 * found from import.meta.url is right in a learner's grading bundle too (grader/engine/bundle.ts).
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const coursePaths = {
  lessons: join(ROOT, "lessons"),
  exercises: join(ROOT, "exercises"),
  solutions: join(ROOT, "solutions"),
  /** The untouched stubs, in a student edition (what `npm run reset` restores without solutions/). */
  pristineStubs: join(ROOT, "stubs"),
};
