/**
 * The harness of the sandboxed process that runs a learner's code (bundled by bundle.ts, started
 * by isolate.ts with Node's permission model: no file writes, no child processes, no workers).
 * It computes the learner's outputs and nothing else: no reference, no comparison, no verdict.
 * What it sends back is data the parent checks against its own plan, so a module that writes to
 * the IPC channel itself can at most claim outputs, which is no more than computing them.
 */
import { initBackend } from "../../lib/backend.js";
import * as tf from "../../lib/tf.js";
import { findCase, implementationOutput, plannedCases, type Implementation } from "./run.js";
import { probeOutputs } from "./outputs.js";
import { learnerLocation } from "./location.js";
import type { LearnerMessage, LearnerRequest } from "./protocol.js";
import type { LessonGrader } from "./types.js";
import { withHiddenCases } from "./hidden.js";

type FileLoaders = Record<string, () => Promise<Record<string, unknown>>>;

export async function runLearnerChild(lessonGrader: LessonGrader, files: FileLoaders, implDir: string): Promise<void> {
  // Taken before any learner module loads; a module that replaces process.send later changes nothing we rely on.
  const sendRaw = process.send!.bind(process) as (m: LearnerMessage) => boolean;
  const send = (m: LearnerMessage) => process.connected && sendRaw(m);
  // The grader is gone: nothing is left to send to.
  process.on("disconnect", () => process.exit(0));
  // A shape error deep inside a TensorFlow.js kernel is 10+ frames below the learner's line.
  Error.stackTraceLimit = 100;
  const requests: LearnerRequest[] = [];
  let wake: (() => void) | undefined;
  process.on("message", (m: LearnerRequest) => {
    requests.push(m);
    wake?.();
  });
  const next = async (): Promise<LearnerRequest> => {
    while (requests.length === 0) await new Promise<void>((r) => (wake = r));
    return requests.shift()!;
  };

  const job = await next();
  if (job.type !== "run") return;
  // The hidden variants are made before any learner module loads (the parent judges by its own plan anyway).
  const grader = withHiddenCases(lessonGrader, job.hiddenSalt);
  const backend = await initBackend("cpu");
  const impl: Implementation = {};
  const loadErrors = new Map<string, string>();
  for (const [file, load] of Object.entries(files)) {
    try {
      Object.assign(impl, await load());
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const at = err instanceof Error ? learnerLocation(String(err.stack ?? ""), implDir) : undefined;
      loadErrors.set(file, `${file} threw while loading: ${msg.split("\n")[0]}${at ? ` (at ${at})` : ""}`);
    }
  }
  send({ type: "loaded", backend });
  for (const key of plannedCases(grader, job.only, new Set(job.skip))) {
    // Learner code may have switched the backend or reset the engine: every case starts on the one reported.
    await tf.ready();
    if (tf.getBackend() !== backend) await tf.setBackend(backend);
    const found = findCase(grader, key.exercise, key.case)!;
    send({ type: "start", exercise: key.exercise, case: key.case });
    const output = implementationOutput(found.ex, found.c, impl, { loadErrors, implDir });
    send({ type: "output", exercise: key.exercise, case: key.case, output });
  }
  send({ type: "done" });
  for (;;) {
    const req = await next();
    if (req.type !== "probe") return;
    await tf.ready();
    if (tf.getBackend() !== backend) await tf.setBackend(backend);
    const found = findCase(grader, req.exercise, req.case);
    const fn = found ? impl[found.ex.name] : undefined;
    const outputs = found && typeof fn === "function" ? probeOutputs(found.ex, found.c, fn, { implDir }) : [];
    send({ type: "probe", exercise: req.exercise, case: req.case, outputs });
  }
}
