/**
 * The reference process: it plans a lesson's cases and computes what each should produce (the
 * reference solution's output, or a stored PyTorch fixture) and, on request, the known mistakes'
 * outputs and the reference's probe results. It never loads a learner's module, so nothing a
 * learner writes can change an expected value. (A student edition reads frozen expectations
 * instead of running this process.)
 */
import { BackendError, initBackend } from "../../lib/backend.js";
import { loadGrader, loadImplementation, loadMutants, type LoadedMutant } from "./load.js";
import { paths } from "./paths.js";
import { join } from "node:path";
import { caseOutput, probeOutputs } from "./outputs.js";
import { expectedOutput, findCase, plannedCases } from "./run.js";
import type { ReferenceMessage, ReferenceRequest } from "./protocol.js";
import { guardInspectorSignal } from "./sandbox.js";
import { distinctHiddenCases, withHiddenCases } from "./hidden.js";

// Expected values are made here: no signal may open this process's inspector.
guardInspectorSignal();
// The grader is gone (it ended, or was killed): nothing is left to send to, so stop quietly.
process.on("disconnect", () => process.exit(0));

function send(msg: ReferenceMessage): void {
  if (process.connected) process.send?.(msg);
}

async function main(job: Extract<ReferenceRequest, { type: "plan" }>): Promise<void> {
  Error.stackTraceLimit = 100;
  const backend = await initBackend("cpu");
  const grader = distinctHiddenCases(withHiddenCases(await loadGrader(job.lesson), job.hiddenSalt));
  const reference = await loadImplementation(grader, join(paths.solutions, job.lesson));
  if (reference.loadErrors.size > 0) throw new Error(`the reference solution failed to load: ${[...reference.loadErrors.values()].join("; ")}`);
  const plan = plannedCases(grader, job.only).map((p) => {
    const { ex, c } = findCase(grader, p.exercise, p.case)!;
    return { ...p, file: ex.file, checks: c.checks, outputOrder: ex.outputOrder, probeUnit: ex.probe?.unit };
  });
  send({ type: "plan", backend, cases: plan });
  for (const p of plan) {
    const { ex, c } = findCase(grader, p.exercise, p.case)!;
    send({ type: "expected", exercise: p.exercise, case: p.case, output: expectedOutput(ex, c, reference.impl) });
  }
  send({ type: "done" });
  // One load for all requests (they arrive together: one per failing case).
  let mutants: Promise<LoadedMutant[]> | undefined;
  process.on("message", async (req: ReferenceRequest) => {
    const found = req.type === "plan" ? undefined : findCase(grader, req.exercise, req.case);
    if (!found) return;
    if (req.type === "mutants") {
      mutants ??= loadMutants(job.lesson);
      const outputs = (await mutants).filter((m) => m.info.exercise === found.ex.name).map((m) => ({ mistake: m.info.mistake, output: caseOutput(found.ex, found.c, m.fn) }));
      send({ type: "mutants", exercise: req.exercise, case: req.case, outputs });
    } else if (req.type === "probe") {
      const ref = reference.impl[found.ex.name];
      send({ type: "probe", exercise: req.exercise, case: req.case, outputs: ref ? probeOutputs(found.ex, found.c, ref) : [] });
    }
  });
}

process.once("message", (job: ReferenceRequest) => {
  if (job.type !== "plan") return;
  main(job).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    send({ type: "fatal", message, usage: err instanceof BackendError });
    if (process.connected) process.disconnect();
  });
});
