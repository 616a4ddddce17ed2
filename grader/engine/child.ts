/**
 * The grading child process: receives one GradeJob, grades it with runLesson, and streams each
 * case's start and result to the parent, which can kill it when a case hangs.
 */
import { initBackend, BackendError } from "../../lib/backend.js";
import { loadGrader, loadImplementation, loadMutants } from "./load.js";
import { runLesson } from "./run.js";
import { paths } from "./paths.js";
import { join } from "node:path";
import { caseKey, type ChildMessage, type GradeJob } from "./protocol.js";

function send(msg: ChildMessage): void {
  process.send?.(msg);
}

async function main(job: GradeJob): Promise<void> {
  const backend = await initBackend("cpu");
  const grader = await loadGrader(job.lesson);
  const skip = new Set(job.skip ?? []);
  const cases = grader.exercises
    .filter((e) => !job.only || job.only.includes(e.name))
    .flatMap((e) => e.cases.map((c) => ({ exercise: e.name, case: c.name, kind: c.kind, tolerance: c.tolerance ?? e.tolerance })))
    .filter((c) => !skip.has(caseKey(c.exercise, c.case)));
  const reference = await loadImplementation(grader, join(paths.solutions, job.lesson));
  if (reference.loadErrors.size > 0) throw new Error(`the reference solution failed to load: ${[...reference.loadErrors.values()].join("; ")}`);
  send({ type: "plan", backend, cases });
  const learner = await loadImplementation(grader, job.implDir);
  const mutants = job.hints ? await loadMutants(job.lesson) : [];
  runLesson(grader, learner.impl, reference.impl, {
    only: job.only,
    skip,
    loadErrors: learner.loadErrors,
    implDir: job.implDir,
    mutants,
    onCaseStart: (exercise, c) => send({ type: "start", exercise, case: c }),
    onResult: (result) => send({ type: "result", result }),
  });
  send({ type: "done" });
}

process.once("message", (job: GradeJob) => {
  main(job)
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      send({ type: "fatal", message, usage: err instanceof BackendError });
    })
    .finally(() => process.disconnect());
});
