/**
 * A lesson's hints (grader/lesson-NN/hints.ts) and which function a learner most likely
 * wants a hint for.
 */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { hintsFile } from "../../grader/engine/paths.js";
import type { LessonHints } from "../../grader/engine/hint-types.js";
import type { LessonRecord } from "./progress.js";

/** The lesson's hints, or undefined when it has no hints file. */
export async function loadHints(lesson: string): Promise<LessonHints | undefined> {
  const file = hintsFile(lesson);
  if (!existsSync(file)) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as { default: LessonHints };
  return mod.default;
}

/**
 * The function to hint at when the learner names none: the first, in the lesson's order, that did
 * not pass at the last grading (the first of all when the lesson was never graded); undefined when
 * every function passed.
 */
export function functionToHint(hints: LessonHints, record: LessonRecord | undefined): string | undefined {
  const names = Object.keys(hints.functions);
  if (!record || record.fatal) return names[0];
  return names.find((n) => record.functions[n]?.verdict !== "passed");
}
