/**
 * The learner's side of grading, whatever carries its messages: Node's sandboxed child process
 * (learner-child.ts, over IPC) or the grading page's Web Worker (tools/browser/worker.ts, over
 * postMessage). Given the lesson's cases and the learner's files, it answers the judge's requests
 * with the protocol's messages (protocol.ts): "loaded", then "start" and "output" for each planned
 * case it is asked to run, "done", then a "probe" answer for each probe request. It computes the
 * learner's outputs and nothing else: no reference, no comparison, no verdict.
 */
import * as tf from "../../lib/tf.js";
import { findCase, implementationOutput, plannedCases, type Implementation } from "./run.js";
import { probeOutputs } from "./outputs.js";
import { learnerLocation } from "./location.js";
import { withHiddenCases } from "./hidden.js";
import type { LearnerMessage, LearnerRequest } from "./protocol.js";
import type { LessonGrader } from "./types.js";

/** The learner's files of the lesson: file name → a loader of its exports. */
export type FileLoaders = Record<string, () => Promise<Record<string, unknown>>>;

/** How the learner's side talks to its judge and starts its engine (the transport's part). */
export interface LearnerSide {
  /** The judge's next request (waits for it). */
  next(): Promise<LearnerRequest>;
  /** Sends a message to the judge (a send function taken before any learner module loads). */
  send(m: LearnerMessage): void;
  /** Starts the TensorFlow.js backend the cases run on and returns its name; undefined when it did not start (the transport told the judge why). */
  startBackend(): Promise<string | undefined>;
  files: FileLoaders;
  /** Files that could not even be compiled, with why (the page's compile errors): reported as they are. */
  failedFiles?: ReadonlyMap<string, string>;
  /** The folder the learner's files live in: exceptions' locations point into it. */
  implDir: string;
}

/** A queue of incoming messages with a waiting `next` (both transports receive by callback). */
export function messageQueue<T>(): { push(m: T): void; next(): Promise<T> } {
  const items: T[] = [];
  let wake: (() => void) | undefined;
  return {
    push(m) {
      items.push(m);
      wake?.();
    },
    async next() {
      while (items.length === 0) await new Promise<void>((r) => (wake = r));
      return items.shift()!;
    },
  };
}

/** Why a learner file threw while loading, as the report says it: "x.ts threw while loading: … (at …)". */
function loadErrorMessage(file: string, err: unknown, implDir: string): string {
  const msg = err instanceof Error ? err.message : String(err);
  const at = err instanceof Error ? learnerLocation(String(err.stack ?? ""), implDir) : undefined;
  return `${file} threw while loading: ${msg.split("\n")[0]}${at ? ` (at ${at})` : ""}`;
}

/** Loads every learner file in turn: their exports together, and why each file that threw did. */
async function loadFiles(side: LearnerSide): Promise<{ impl: Implementation; loadErrors: Map<string, string> }> {
  const impl: Implementation = {};
  const loadErrors = new Map(side.failedFiles ?? []);
  for (const [file, load] of Object.entries(side.files)) {
    try {
      Object.assign(impl, await load());
    } catch (err) {
      loadErrors.set(file, loadErrorMessage(file, err, side.implDir));
    }
  }
  return { impl, loadErrors };
}

/**
 * Serves the judge: waits for its "run" request, makes the lesson's hidden variants (before any
 * learner module loads), starts the backend, loads the learner's files, runs the planned cases
 * not skipped and answers probe requests until another request comes.
 */
export async function serveLearner(lessonGrader: LessonGrader, side: LearnerSide): Promise<void> {
  const job = await side.next();
  if (job.type !== "run") return;
  const grader = withHiddenCases(lessonGrader, job.hiddenSalt);
  const backend = await side.startBackend();
  if (backend === undefined) return;
  const { impl, loadErrors } = await loadFiles(side);
  // Learner code may have switched the backend or reset the engine: every case starts on the one reported.
  const onBackend = async () => {
    await tf.ready();
    if (tf.getBackend() !== backend) await tf.setBackend(backend);
  };
  side.send({ type: "loaded", backend });
  for (const key of plannedCases(grader, job.only, new Set(job.skip))) {
    await onBackend();
    const found = findCase(grader, key.exercise, key.case)!;
    side.send({ type: "start", exercise: key.exercise, case: key.case });
    const output = implementationOutput(found.ex, found.c, impl, { loadErrors, implDir: side.implDir });
    side.send({ type: "output", exercise: key.exercise, case: key.case, output });
  }
  side.send({ type: "done" });
  for (;;) {
    const req = await side.next();
    if (req.type !== "probe") return;
    await onBackend();
    const found = findCase(grader, req.exercise, req.case);
    const fn = found ? impl[found.ex.name] : undefined;
    const outputs = found && typeof fn === "function" ? probeOutputs(found.ex, found.c, fn, { implDir: side.implDir }) : [];
    side.send({ type: "probe", exercise: req.exercise, case: req.case, outputs });
  }
}
