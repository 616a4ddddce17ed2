/**
 * Grades one staged lesson of one learner with the engine's isolated grader and sends the run back
 * to the gradebook (jobs.ts). It runs no learner code itself: gradeIsolated starts the sandboxed
 * learner process and the reference process. It is a process of its own so that the gradebook's
 * wall limit can stop it: on SIGTERM, SIGINT or a lost parent it exits through process.exit, which
 * lets the engine kill the process groups it started.
 */
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gradeIsolated } from "../../grader/engine/isolate.js";
import { ROOT } from "../../grader/engine/paths.js";
import type { WorkerJob, WorkerReply } from "./jobs.js";

const BUILD = join(ROOT, ".grader-build");

/**
 * Stopped mid-grading, gradeIsolated's own clean-up never runs: its exit handler kills the grading
 * processes, and this removes the learner bundles it built (bundle.ts names them `<pid>-…`).
 */
const stop = () => {
  try {
    for (const d of readdirSync(BUILD)) if (d.startsWith(`${process.pid}-`)) rmSync(join(BUILD, d), { recursive: true, force: true });
  } catch {
    // nothing was built
  }
  process.exit(1);
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, stop);
process.on("disconnect", stop);

process.once("message", (job: WorkerJob) => {
  gradeIsolated({ lesson: job.lesson, implDir: job.implDir, hints: true }, { caseTimeoutMs: job.caseTimeoutMs })
    .then(
      (run): WorkerReply => ({ type: "run", run }),
      (err: unknown): WorkerReply => ({ type: "error", message: err instanceof Error ? err.message : String(err) }),
    )
    .then((reply) => process.send!(reply, () => process.exit(0)));
});
