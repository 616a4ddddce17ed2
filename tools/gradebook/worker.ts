/**
 * Grades one staged lesson of one learner with the engine's isolated grader and sends the run back
 * to the gradebook (jobs.ts). It runs no learner code itself: gradeIsolated starts the sandboxed
 * learner process and the reference process. It is a process of its own so that the gradebook's
 * wall limit can stop it: on SIGTERM, SIGINT or a lost parent it exits through process.exit, which
 * lets the engine kill the process groups it started.
 */
import "./guard.js";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { gradeIsolated } from "../../grader/engine/isolate.js";
import { osSandbox } from "../../grader/engine/sandbox.js";
import type { WorkerJob, WorkerReply } from "./jobs.js";
import { BUILD_DIR, isStagedCopy } from "./submissions.js";

let job: WorkerJob | undefined;

/** Removes the learner bundles this process built (bundle.ts names them `<pid>-…`). */
function removeMyBundles(): void {
  try {
    for (const d of readdirSync(BUILD_DIR)) if (d.startsWith(`${process.pid}-`)) rmSync(join(BUILD_DIR, d), { recursive: true, force: true });
  } catch {
    // nothing was built
  }
}

/**
 * Stopped mid-grading, gradeIsolated's own clean-up never runs: its exit handler kills the grading
 * processes, and this removes the learner bundles it built. With the gradebook gone (killed), no
 * one else will remove this job's staged copy: this does.
 */
const stop = (parentGone: boolean) => {
  removeMyBundles();
  const staged = job ? dirname(dirname(job.implDir)) : undefined;
  try {
    if (parentGone && staged && isStagedCopy(staged)) rmSync(staged, { recursive: true, force: true });
  } catch {
    // removed meanwhile, or the next gradebook run removes it
  }
  process.exit(1);
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => stop(false));
process.on("disconnect", () => stop(true));

process.once("message", (m: WorkerJob) => {
  job = m;
  const os = osSandbox();
  const graded: Promise<WorkerReply> =
    m.requireOsSandbox && !os.available
      ? Promise.resolve({ type: "error", message: `the grading process found no OS sandbox (${os.why}), which the gradebook requires without --trusted` })
      : gradeIsolated({ lesson: m.lesson, implDir: m.implDir, hints: true, hiddenSalt: m.hiddenSalt }, { caseTimeoutMs: m.caseTimeoutMs }).then(
          (run): WorkerReply => ({ type: "run", run }),
          (err: unknown): WorkerReply => ({ type: "error", message: err instanceof Error ? err.message : String(err) }),
        );
  void graded.then((reply) => process.send!(reply, () => process.exit(0)));
});
