/**
 * One gradebook job: one lesson of one learner, staged inside the repository and graded by a worker
 * process (worker.ts) under a wall limit. Whatever the learner's code does (crash, hang, exit, print,
 * forge messages), the job ends with the engine's verdicts or with a stated reason, never an
 * exception, and the staged copy is removed.
 */
import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IsolatedRun } from "../../grader/engine/isolate.js";
import { ROOT } from "../../grader/engine/paths.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { stageLesson, type Learner, type Staged } from "./submissions.js";

export interface WorkerJob {
  lesson: string;
  implDir: string;
  caseTimeoutMs: number;
}

export type WorkerReply = { type: "run"; run: IsolatedRun } | { type: "error"; message: string };

export interface LessonGrade {
  lesson: string;
  ms: number;
  backend?: string;
  /** Set when the lesson has no verdicts: it ran past the wall limit, or grading could not run. */
  problem?: { status: "timeout" | "not-graded"; message: string };
  /** The engine's case results, with paths as they are in the learner's folder. */
  results: CaseResult[];
  /** What the learner's code printed (as the engine kept it). */
  printed: string;
}

export interface JobOptions {
  caseTimeoutMs: number;
  wallMs: number;
}

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
/** How long a stopped worker has to kill its grading processes before it is killed itself. */
const GRACE_MS = 3000;

const workers = new Set<ChildProcess>();
const stagedNow = new Set<Staged>();

/** Stops every worker and removes every staged copy (Ctrl-C, or an unexpected end). */
export function stopAll(): void {
  workers.forEach((w) => w.kill("SIGTERM"));
  stagedNow.forEach((s) => s.remove());
}

function runWorker(job: WorkerJob, wallMs: number): Promise<WorkerReply | { type: "wall" }> {
  return new Promise((resolve) => {
    const child = fork(WORKER, [], { execArgv: ["--import", "tsx"], serialization: "advanced", stdio: ["ignore", "pipe", "pipe", "ipc"], env: { ...process.env, NODE_OPTIONS: "" } });
    workers.add(child);
    let stderr = "";
    child.stdout?.resume();
    child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    let reply: WorkerReply | { type: "wall" } | undefined;
    let killer: NodeJS.Timeout | undefined;
    const wall = setTimeout(() => {
      reply ??= { type: "wall" };
      child.kill("SIGTERM");
      killer = setTimeout(() => child.kill("SIGKILL"), GRACE_MS);
    }, wallMs);
    const end = (fallback: WorkerReply) => {
      clearTimeout(wall);
      clearTimeout(killer);
      workers.delete(child);
      resolve(reply ?? fallback);
    };
    child.on("message", (m: WorkerReply) => (reply ??= m));
    // A worker that cannot start (no memory, no process slots) is this job's reason, not the batch's end.
    child.on("error", (err) => end({ type: "error", message: `the grading process could not run: ${err.message}` }));
    child.on("exit", (code, signal) => {
      const last = stderr.trim().split("\n").pop();
      end({ type: "error", message: `the grading process stopped (${signal ?? `code ${code}`})${last ? `: ${last}` : ""}` });
    });
    child.send(job, (err) => err && end({ type: "error", message: `the grading process could not be given its job: ${err.message}` }));
  });
}

/** `text` with the staging folder's paths written as the learner's own. */
function learnerPaths(text: string, staged: Staged, learner: Learner): string {
  const to = learner.prefix ? `${learner.prefix}/` : "";
  return text.split(`${join(ROOT, staged.rel)}/`).join(to).split(`${staged.rel}/`).join(to);
}

/** A case result as the learner's folder names things; a missing file says why it is missing. */
function rewrite(r: CaseResult, staged: Staged, learner: Learner): CaseResult {
  const fix = (t: string) => learnerPaths(t, staged, learner);
  let message = r.message === undefined ? undefined : fix(r.message);
  const missing = message && /^(\S+) is missing: restore it with /.exec(message);
  if (missing) {
    const file = missing[1];
    const linked = staged.links.some((l) => file.endsWith(`/${l}`) || file === l);
    const why = linked ? "is a symbolic link, which the gradebook does not follow" : learner.lessonsDir ? "is missing from the submission" : `is missing from the submission (${learner.layout})`;
    message = `${file} ${why}`;
  }
  return { ...r, message, details: r.details?.map(fix), location: r.location === undefined ? undefined : fix(r.location) };
}

/** Grades one lesson of one learner; never throws for anything the learner's files do. */
export async function gradeJob(learner: Learner, lesson: string, opts: JobOptions): Promise<LessonGrade> {
  const t0 = Date.now();
  let staged: Staged;
  try {
    staged = stageLesson(learner, lesson);
  } catch (err) {
    return { lesson, ms: 0, results: [], printed: "", problem: { status: "not-graded", message: `the submission could not be copied for grading: ${(err as Error).message}` } };
  }
  stagedNow.add(staged);
  try {
    const reply = await runWorker({ lesson, implDir: staged.implDir, caseTimeoutMs: opts.caseTimeoutMs }, opts.wallMs);
    const ms = Date.now() - t0;
    if (reply.type === "wall") return { lesson, ms, results: [], printed: "", problem: { status: "timeout", message: `grading ${lesson} took longer than the ${opts.wallMs / 1000} s wall limit, and was stopped` } };
    if (reply.type === "error") return { lesson, ms, results: [], printed: "", problem: { status: "not-graded", message: learnerPaths(reply.message, staged, learner) } };
    const { run } = reply;
    const printed = learnerPaths(run.printed, staged, learner);
    if (run.fatal) return { lesson, ms, backend: run.backend, results: [], printed, problem: { status: "not-graded", message: `could not grade ${lesson}: ${learnerPaths(run.fatal.message, staged, learner)}` } };
    return { lesson, ms, backend: run.backend, results: run.results.map((r) => rewrite(r, staged, learner)), printed };
  } finally {
    staged.remove();
    stagedNow.delete(staged);
  }
}
