/**
 * The learner's side of grading in a browser: a Web Worker, the twin of
 * grader/engine/learner-child.ts. It loads the lesson's cases (the same grader/lesson-N/cases.ts,
 * bundled for the browser), evaluates the learner's compiled files, runs each planned case's inputs
 * through the learner's functions on TensorFlow.js's cpu backend and posts the outputs back as
 * data (the Node protocol's messages). No reference, no comparison, no verdict: the page judges.
 * A function that never returns is stopped by the page terminating this worker.
 */
import * as tf from "@tensorflow/tfjs";
import { findCase, implementationOutput, plannedCases, type Implementation } from "../../grader/engine/run.js";
import { probeOutputs } from "../../grader/engine/outputs.js";
import { learnerLocation } from "../../grader/engine/location.js";
import { withHiddenCases } from "../../grader/engine/hidden.js";
import type { LearnerMessage, LearnerRequest } from "../../grader/engine/protocol.js";
import type { LessonGrader } from "../../grader/engine/types.js";
import { installFiles } from "./shims/fs.js";
import type { CompiledFile, PageToWorker, WorkerStart } from "./protocol.js";
import { evaluateModule } from "./evaluate.js";
import { installSourceMappedStacks } from "./source-map.js";

const scope = self as unknown as { postMessage(m: unknown): void; onmessage: ((e: MessageEvent<PageToWorker>) => void) | null };
// Taken before any learner module loads; a module that replaces postMessage later changes nothing the page relies on.
const post = scope.postMessage.bind(scope) as (m: LearnerMessage | { type: "fatal"; message: string }) => void;

const requests: PageToWorker[] = [];
let wake: (() => void) | undefined;
scope.onmessage = (e) => {
  requests.push(e.data);
  wake?.();
};
async function next(): Promise<PageToWorker> {
  while (requests.length === 0) await new Promise<void>((r) => (wake = r));
  return requests.shift()!;
}

/** The learner's exports, file by file, and why a file failed to load (the words learner-child.ts uses). */
function loadFiles(files: readonly CompiledFile[], implDir: string): { impl: Implementation; loadErrors: Map<string, string> } {
  const impl: Implementation = {};
  const loadErrors = new Map<string, string>();
  for (const f of files) {
    if ("error" in f) {
      loadErrors.set(f.file, f.error);
      continue;
    }
    try {
      Object.assign(impl, evaluateModule(f.code, `${implDir}/${f.file}`, { "@tensorflow/tfjs": tf }));
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const at = err instanceof Error ? learnerLocation(String(err.stack ?? ""), implDir) : undefined;
      loadErrors.set(f.file, `${f.file} threw while loading: ${msg.split("\n")[0]}${at ? ` (at ${at})` : ""}`);
    }
  }
  return { impl, loadErrors };
}

async function main(): Promise<void> {
  const start = (await next()) as WorkerStart;
  if (start.type !== "start") return;
  // A shape error deep inside a TensorFlow.js kernel is 10+ frames below the learner's line.
  Error.stackTraceLimit = 100;
  installSourceMappedStacks();
  tf.env().set("PROD", true);
  installFiles((await (await fetch(start.dataUrl)).json()) as Record<string, string>);
  const lessonGrader = ((await import(/* @vite-ignore */ start.casesUrl)) as { default: LessonGrader }).default;
  const job = (await next()) as LearnerRequest;
  if (job.type !== "run") return;
  const grader = withHiddenCases(lessonGrader, job.hiddenSalt);
  // tf.setBackend resolves false (and stays where it was) when a backend fails to start: checked.
  if (!(await tf.setBackend(start.backend))) return post({ type: "fatal", message: `TensorFlow.js's ${start.backend} backend did not start in this browser` });
  await tf.ready();
  const backend = tf.getBackend();
  const { impl, loadErrors } = loadFiles(start.files, start.implDir);
  post({ type: "loaded", backend });
  for (const key of plannedCases(grader, job.only, new Set(job.skip))) {
    // Learner code may have switched the backend or reset the engine: every case starts on the one reported.
    await tf.ready();
    if (tf.getBackend() !== backend) await tf.setBackend(backend);
    const found = findCase(grader, key.exercise, key.case)!;
    post({ type: "start", exercise: key.exercise, case: key.case });
    const output = implementationOutput(found.ex, found.c, impl, { loadErrors, implDir: start.implDir });
    post({ type: "output", exercise: key.exercise, case: key.case, output });
  }
  post({ type: "done" });
  for (;;) {
    const req = await next();
    if (req.type !== "probe") return;
    await tf.ready();
    if (tf.getBackend() !== backend) await tf.setBackend(backend);
    const found = findCase(grader, req.exercise, req.case);
    const fn = found ? impl[found.ex.name] : undefined;
    const outputs = found && typeof fn === "function" ? probeOutputs(found.ex, found.c, fn, { implDir: start.implDir }) : [];
    post({ type: "probe", exercise: req.exercise, case: req.case, outputs });
  }
}

main().catch((err: unknown) => post({ type: "fatal", message: `the grading worker failed: ${err instanceof Error ? err.message : String(err)}` }));
