/**
 * One gradebook job: one lesson of one learner, staged in a copy the grader owns (submissions.ts)
 * and graded by a worker process (worker.ts) under a wall limit. Whatever the learner's code does
 * (crash, hang, exit, print, forge messages, kill its grading process), the job ends with the
 * engine's verdicts or with a stated reason, never an exception, and the staged copy is removed.
 *
 * Every process beneath a worker (the worker, its reference and learner processes, an `unshare`
 * around one) carries the job's token in its environment, COURSE_GRADEBOOK_JOB. When a worker ends
 * without finishing (killed, crashed, stopped at the wall limit or by Ctrl-C), whatever still runs
 * with that token is killed: a learner process spinning in an endless loop outlives its parent.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { IsolatedRun } from "../../grader/engine/isolate.js";
import { ROOT } from "../../grader/engine/paths.js";
import { inspectorSignalFlags } from "../../grader/engine/sandbox.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { BUILD_DIR, stageLesson, type Learner, type Staged } from "./submissions.js";

export interface WorkerJob {
  lesson: string;
  implDir: string;
  caseTimeoutMs: number;
  /** Refuse to grade unless the learner's process gets OS namespaces (the gradebook was not run with --trusted). */
  requireOsSandbox: boolean;
  /** The lesson's hidden-case salt (secret.ts), derived from the instructor's secret; none: public cases only. */
  hiddenSalt?: number;
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
  /** Learner files the bundle held, relative to the learner's lesson folders' parent ("lesson-23/ppo.ts"). */
  bundled?: string[];
  /** Taken from the grading cache (cache.ts), not graded this run. */
  cached?: boolean;
}

export interface JobOptions {
  caseTimeoutMs: number;
  wallMs: number;
  requireOsSandbox: boolean;
  /** The hidden cases' salt of this lesson (secret.ts); none: public cases only. */
  hiddenSalt?: number;
}

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
/** How long a stopped worker has to kill its grading processes before it is killed itself. */
const GRACE_MS = 3000;
/** The environment variable that marks every process beneath a job's worker. */
export const JOB_ENV = "COURSE_GRADEBOOK_JOB";
/** This run's part of every job token: the gradebook's pid and a random part no other run has. */
const RUN_TOKEN = `${process.pid}-${randomBytes(6).toString("hex")}`;
let jobCounter = 0;

const workers = new Map<ChildProcess, string>();
const stagedNow = new Set<Staged>();
let stopping = false;

/**
 * Kills every process that carries `token` (exactly, or as a prefix when `prefix`) in its
 * environment, other than this one: what is left beneath a worker that ended. Linux only (/proc);
 * elsewhere it does nothing. Returns how many were killed.
 */
export function killMarked(token: string, prefix = false): number {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return 0;
  }
  let killed = 0;
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${e}/environ`, "latin1");
    } catch {
      continue; // gone, or another user's
    }
    const marked = env.split("\0").some((v) => (prefix ? v.startsWith(`${JOB_ENV}=${token}`) : v === `${JOB_ENV}=${token}`));
    if (!marked) continue;
    try {
      process.kill(Number(e), "SIGKILL");
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}

/** Removes the bundles a worker that can no longer clean up built (bundle.ts names them `<pid>-<time>-<n>`). */
function removeBundlesOf(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    for (const d of readdirSync(BUILD_DIR)) if (new RegExp(`^${pid}-\\d+-\\d+$`).test(d)) rmSync(join(BUILD_DIR, d), { recursive: true, force: true });
  } catch {
    // nothing was built
  }
}

/** Whether the gradebook is stopping (Ctrl-C, SIGTERM): no new job starts, and unfinished ones are not reported. */
export function isStopping(): boolean {
  return stopping;
}

/**
 * Stops the gradebook's jobs: no new job starts; every worker gets SIGTERM, then SIGKILL after a
 * grace period; whatever still runs beneath them is killed; every staged copy is removed. Resolves
 * when that is done (within GRACE_MS and a little).
 */
export async function stopAll(): Promise<void> {
  stopping = true;
  const exits = [...workers.keys()].map((w) => new Promise<void>((resolve) => (w.exitCode !== null || w.signalCode !== null ? resolve() : w.once("exit", () => resolve()))));
  workers.forEach((_, w) => w.kill("SIGTERM"));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(exits), new Promise((r) => (timer = setTimeout(r, GRACE_MS)))]);
  clearTimeout(timer);
  stopNow();
}

/** stopAll's last step, synchronous (for an exit handler or a second Ctrl-C): kill, sweep, remove. */
export function stopNow(): void {
  stopping = true;
  workers.forEach((_, w) => {
    w.kill("SIGKILL");
    removeBundlesOf(w.pid);
  });
  killMarked(`${RUN_TOKEN}/`, true);
  stagedNow.forEach((s) => s.remove());
  stagedNow.clear();
}

function runWorker(job: WorkerJob, wallMs: number): Promise<WorkerReply | { type: "wall" }> {
  return new Promise((resolve) => {
    const token = `${RUN_TOKEN}/${jobCounter++}`;
    const child = fork(WORKER, [], {
      execArgv: ["--import", "tsx", ...inspectorSignalFlags()],
      serialization: "advanced",
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      env: { ...process.env, NODE_OPTIONS: "", [JOB_ENV]: token },
    });
    workers.set(child, token);
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
    let ended = false;
    const end = (fallback: WorkerReply) => {
      if (ended) return;
      ended = true;
      clearTimeout(wall);
      clearTimeout(killer);
      workers.delete(child);
      resolve(reply ?? fallback);
    };
    child.on("message", (m: WorkerReply) => (reply ??= m));
    // A worker that cannot start (no memory, no process slots) is this job's reason, not the batch's end.
    child.on("error", (err) => end({ type: "error", message: `the grading process could not run: ${err.message}` }));
    child.on("exit", (code, signal) => {
      if (code !== 0 || reply === undefined || reply.type === "wall") {
        // It did not finish: what it started may still run, and what it built is still there.
        killMarked(token);
        removeBundlesOf(child.pid);
      }
      const last = stderr.trim().split("\n").pop();
      const message =
        signal === "SIGKILL"
          ? `the grading process was killed (SIGKILL) before it finished, so ${job.lesson} was not graded: the machine may have run out of memory, or something else stopped it. Grade this learner again.`
          : `the grading process stopped (${signal ?? `code ${code}`}) before it finished, so ${job.lesson} was not graded${last ? `: ${last}` : ""}`;
      end({ type: "error", message });
    });
    child.send(job, (err) => err && end({ type: "error", message: `the grading process could not be given its job: ${err.message}` }));
  });
}

/** `text` with the staging folder's paths written as the learner's own. */
function learnerPaths(text: string, staged: Staged, learner: Learner): string {
  const to = learner.prefix ? `${learner.prefix}/` : "";
  return text.split(`${join(ROOT, staged.rel)}/`).join(to).split(`${staged.rel}/`).join(to);
}

/** Letters and digits of a file's stem, lower case: "PPO_final.ts" → "ppofinal". */
const stem = (f: string) => f.replace(/\.[^.]*$/, "").toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * Files beside a missing exercise file that look meant for it: source files the lesson does not
 * expect whose name holds the expected one's stem, or is held by it ("PPO_final.ts", "ppo (1).ts",
 * "ppo.js" for ppo.ts).
 */
function nearMisses(learner: Learner, r: CaseResult, shown: string): string[] {
  if (!learner.lessonsDir) return [];
  const lessonDir = join(learner.lessonsDir, shown.split("/").slice(-2, -1)[0] ?? "");
  let entries: string[];
  try {
    entries = readdirSync(lessonDir);
  } catch {
    return [];
  }
  const want = stem(basename(shown));
  if (want.length < 2) return [];
  return entries.filter((e) => e !== basename(shown) && /\.(ts|mts|js|mjs|txt)$/i.test(e) && (stem(e).includes(want) || (stem(e).length >= 3 && want.includes(stem(e))))).sort().slice(0, 3);
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
    const near = linked ? [] : nearMisses(learner, r, file);
    message = `${file} ${why}${near.length > 0 ? `; beside it: ${near.join(", ")} (rename ${near.length === 1 ? "it" : "the right one"} to ${basename(file)})` : ""}`;
  }
  return { ...r, message, details: r.details?.map(fix), location: r.location === undefined ? undefined : fix(r.location) };
}

/** Grades one lesson of one learner; never throws for anything the learner's files do. */
export async function gradeJob(learner: Learner, lesson: string, opts: JobOptions): Promise<LessonGrade> {
  const t0 = Date.now();
  if (stopping) return { lesson, ms: 0, results: [], printed: "", problem: { status: "not-graded", message: "the gradebook was stopped before this lesson was graded" } };
  let staged: Staged;
  try {
    staged = stageLesson(learner, lesson);
  } catch (err) {
    return { lesson, ms: 0, results: [], printed: "", problem: { status: "not-graded", message: `the submission could not be copied for grading: ${(err as Error).message}` } };
  }
  stagedNow.add(staged);
  try {
    const reply = await runWorker({ lesson, implDir: staged.implDir, caseTimeoutMs: opts.caseTimeoutMs, requireOsSandbox: opts.requireOsSandbox, hiddenSalt: opts.hiddenSalt }, opts.wallMs);
    const ms = Date.now() - t0;
    if (reply.type === "wall") return { lesson, ms, results: [], printed: "", problem: { status: "timeout", message: `grading ${lesson} took longer than the ${opts.wallMs / 1000} s wall limit, and was stopped` } };
    if (reply.type === "error") return { lesson, ms, results: [], printed: "", problem: { status: "not-graded", message: learnerPaths(reply.message, staged, learner) } };
    const { run } = reply;
    const printed = learnerPaths(run.printed, staged, learner);
    if (run.fatal) return { lesson, ms, backend: run.backend, results: [], printed, problem: { status: "not-graded", message: `could not grade ${lesson}: ${learnerPaths(run.fatal.message, staged, learner)}` } };
    const stagedExercises = join(ROOT, staged.rel);
    const bundled = [...(run.learnerInputs?.keys() ?? [])].map((p) => relative(stagedExercises, p)).sort();
    return { lesson, ms, backend: run.backend, results: run.results.map((r) => rewrite(r, staged, learner)), printed, bundled };
  } finally {
    staged.remove();
    stagedNow.delete(staged);
  }
}
