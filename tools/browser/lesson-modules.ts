/**
 * A training worker's lesson modules: the compiled files a page sent for each lesson (the learner's
 * passing ones and the published reference, train-protocol.ts's TrainLesson) imported as ES
 * modules that share this worker's TensorFlow.js, ready for train-resolve.ts's chooseFunctions.
 * A file that did not compile, or threw while loading, makes the learner's side "not usable here"
 * with why (the reference is then used, when published). `functionsForRun` does both steps for a
 * run: the functions, with the "whose functions" table, or the lessons to finish first.
 */
import * as tfjs from "@tensorflow/tfjs";
import { importCompiled, shareWithLearnerCode } from "./evaluate.js";
import type { CompiledFile } from "./protocol.js";
import { describeRun } from "../../lib/resolver.js";
import { chooseFunctions, notFinished, type LoadedLesson } from "./train-resolve.js";
import type { TrainLesson } from "./train-protocol.js";

/** The exports of `files` (compiled ES modules), or why one could not be used. */
async function load(files: readonly CompiledFile[]): Promise<Record<string, unknown> | string> {
  const exports: Record<string, unknown> = {};
  for (const f of files) {
    if ("error" in f) return `not usable here (${f.error.split("\n")[0]})`;
    try {
      Object.assign(exports, await importCompiled(f.code));
    } catch (err) {
      return `not usable here (${f.file} threw while loading: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`;
    }
  }
  return exports;
}

/** Each lesson's modules: the learner's exports (or why there are none) and the reference's, when it was sent. */
async function loadLessons(lessons: Record<string, TrainLesson>): Promise<Record<string, LoadedLesson>> {
  shareWithLearnerCode({ "@tensorflow/tfjs": tfjs });
  const out: Record<string, LoadedLesson> = {};
  for (const [lesson, l] of Object.entries(lessons)) {
    const reference = l.reference ? await load(l.reference) : undefined;
    out[lesson] = { learner: typeof l.learner === "string" ? l.learner : await load(l.learner), reference: typeof reference === "object" ? reference : undefined };
  }
  return out;
}

/**
 * The functions of `homes` (name → lesson) for a run, out of the lessons the page sent, with the
 * "whose functions" table (lib/resolver.ts's describeRun); or, when some are neither the learner's
 * passing ones nor published, the resolver's words and the lessons to finish first.
 */
export async function functionsForRun<T extends object>(
  homes: { [K in keyof T]: string },
  lessons: Record<string, TrainLesson>,
): Promise<{ fns: T; whose: string[] } | { missing: { message: string; lessons: string[] } }> {
  try {
    const chosen = chooseFunctions<T>(homes, await loadLessons(lessons));
    return { fns: chosen.fns, whose: describeRun(chosen.choices) };
  } catch (err) {
    const missing = notFinished(err);
    if (!missing) throw err;
    return { missing };
  }
}
