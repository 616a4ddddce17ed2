/**
 * A training worker's lesson modules: the compiled files a page sent for each lesson (the learner's
 * passing ones and the published reference, train-protocol.ts's TrainLesson) imported as ES
 * modules that share this worker's TensorFlow.js and its resolver, ready for train-resolve.ts's
 * chooseFunctions. A learner's file that takes another lesson's function through lib/resolver.ts
 * at load time (lesson 11's takes lesson 9's rmsNorm and lesson 12's applyRope) gets it as the
 * grading worker would give it (shims/resolver.ts lending grader/engine/sandbox-resolver.ts's
 * choice): the learner's own files of that lesson when the page sent them, else its published
 * reference. A file that did not compile, or threw while loading, makes the learner's side "not
 * usable here" with why (the reference is then used, when published). `functionsForRun` does both
 * steps for a run: the functions, with the "whose functions" table, or the lessons to finish first.
 */
import * as tfjs from "@tensorflow/tfjs";
import { lendingResolver, type LentLesson } from "../../grader/engine/sandbox-resolver.js";
import { describeRun } from "../../lib/resolver.js";
import { importCompiled, SHARED_RESOLVER, shareWithLearnerCode } from "./evaluate.js";
import type { CompiledFile } from "./protocol.js";
import * as resolver from "./shims/resolver.js";
import { chooseFunctions, notFinished, type LoadedLesson } from "./train-resolve.js";
import type { TrainLesson } from "./train-protocol.js";

/** What the resolver's lending names as the one asking ("… uses rmsNorm from lesson-9, which you have not written yet"). */
const ASKING = "this training run";

type Loader = () => Promise<Record<string, unknown>>;

/** One loader a compiled file (imported once, as Node imports a module once), or why the files cannot be used. */
function loaders(files: readonly CompiledFile[]): Array<{ file: string; load: Loader }> | string {
  const bad = files.find((f): f is Extract<CompiledFile, { error: string }> => "error" in f);
  if (bad) return `not usable here (${bad.error.split("\n")[0]})`;
  return files.map((f) => {
    let loaded: Promise<Record<string, unknown>> | undefined;
    return { file: f.file, load: () => (loaded ??= importCompiled((f as { code: string }).code)) };
  });
}

/** The exports of a lesson's files, or why one could not be used. */
async function load(files: Array<{ file: string; load: Loader }> | string): Promise<Record<string, unknown> | string> {
  if (typeof files === "string") return files;
  const exports: Record<string, unknown> = {};
  for (const f of files) {
    try {
      Object.assign(exports, await f.load());
    } catch (err) {
      return `not usable here (${f.file} threw while loading: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`;
    }
  }
  return exports;
}

/** Each lesson's modules: the learner's exports (or why there are none) and the reference's, when it was sent. */
async function loadLessons(lessons: Record<string, TrainLesson>): Promise<Record<string, LoadedLesson>> {
  const mine = Object.fromEntries(Object.entries(lessons).map(([lesson, l]) => [lesson, typeof l.learner === "string" ? l.learner : loaders(l.learner)]));
  const theirs = Object.fromEntries(Object.entries(lessons).flatMap(([lesson, l]) => (l.reference ? [[lesson, loaders(l.reference)]] : [])));
  // What a file asks the resolver for at load time: the learner's own lesson when sent, else the published reference.
  const lent: Record<string, LentLesson> = {};
  for (const lesson of Object.keys(lessons)) {
    const m = mine[lesson];
    const r = theirs[lesson];
    if (typeof m !== "string") lent[lesson] = { source: "exercises", files: m.map((f) => f.load) };
    else if (r && typeof r !== "string") lent[lesson] = { source: "solutions", files: r.map((f) => f.load) };
  }
  shareWithLearnerCode({ "@tensorflow/tfjs": tfjs, [SHARED_RESOLVER]: resolver });
  resolver.lend(lendingResolver(ASKING, lent));
  const out: Record<string, LoadedLesson> = {};
  for (const lesson of Object.keys(lessons)) {
    const reference = theirs[lesson] ? await load(theirs[lesson]) : undefined;
    out[lesson] = { learner: await load(mine[lesson]), reference: typeof reference === "object" ? reference : undefined };
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
