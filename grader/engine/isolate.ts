/**
 * Grades a lesson in a child process with a watchdog. vitest (and Node itself) cannot interrupt a
 * synchronous infinite loop, so a learner function that never returns is only stoppable from
 * outside: when one case runs past `caseTimeoutMs`, the child is killed, that case is reported as a
 * timeout, the function's remaining cases are reported as not run, and a fresh child carries on with
 * the other functions.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { caseKey, type ChildMessage, type GradeJob, type PlannedCase } from "./protocol.js";
import type { CaseResult } from "./types.js";

export interface IsolatedOptions {
  /** Longest a single case may run. */
  caseTimeoutMs: number;
  /** Longest start-up (TypeScript, TensorFlow.js, the learner's module) may take. */
  loadTimeoutMs?: number;
  onResult?: (result: CaseResult) => void;
}

export interface IsolatedRun {
  backend: string;
  results: CaseResult[];
  /** Set when grading could not run at all (the reference failed, a backend did not start, …). */
  fatal?: { message: string; usage: boolean };
}

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

export async function gradeIsolated(job: GradeJob, opts: IsolatedOptions): Promise<IsolatedRun> {
  const results: CaseResult[] = [];
  const report = (r: CaseResult) => {
    results.push(r);
    opts.onResult?.(r);
  };
  let plan: PlannedCase[] | undefined;
  let backend = "";
  for (;;) {
    const skip = new Set([...(job.skip ?? []), ...results.map((r) => caseKey(r.exercise, r.case))]);
    const attempt = await runChild({ ...job, skip: [...skip] }, opts, report);
    if (attempt.plan && !plan) plan = attempt.plan;
    backend = attempt.backend || backend;
    if (attempt.fatal) return { backend, results, fatal: attempt.fatal };
    if (attempt.finished) return { backend, results };
    const stuck = attempt.stuckCase;
    if (!stuck || !plan) {
      return { backend, results, fatal: { message: attempt.why ?? "the grading process stopped before it could start", usage: false } };
    }
    const planned = plan.find((p) => p.exercise === stuck.exercise && p.case === stuck.case);
    report({ ...stuck, kind: planned?.kind ?? "random", tolerance: planned?.tolerance ?? { rtol: 0, atol: 0 }, status: attempt.timedOut ? "timeout" : "error", message: attempt.why, ms: attempt.elapsedMs });
    for (const p of plan) {
      const key = caseKey(p.exercise, p.case);
      if (p.exercise !== stuck.exercise || results.some((r) => caseKey(r.exercise, r.case) === key)) continue;
      report({ ...p, status: attempt.timedOut ? "timeout" : "error", message: `not run: an earlier case of ${p.exercise} ${attempt.timedOut ? "timed out" : "crashed the grader"}`, ms: 0 });
    }
  }
}

interface Attempt {
  plan?: PlannedCase[];
  backend: string;
  finished: boolean;
  fatal?: { message: string; usage: boolean };
  stuckCase?: { exercise: string; case: string };
  timedOut: boolean;
  why?: string;
  elapsedMs: number;
}

function runChild(job: GradeJob, opts: IsolatedOptions, report: (r: CaseResult) => void): Promise<Attempt> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(CHILD, [], {
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const attempt: Attempt = { backend: "", finished: false, timedOut: false, elapsedMs: 0 };
    let current: { exercise: string; case: string } | undefined;
    let startedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const loadLimit = opts.loadTimeoutMs ?? Math.max(opts.caseTimeoutMs, 30_000);
    const arm = (ms: number, why: () => string) => {
      clearTimeout(timer);
      startedAt = Date.now();
      timer = setTimeout(() => {
        attempt.timedOut = true;
        attempt.why = why();
        attempt.stuckCase = current;
        attempt.elapsedMs = Date.now() - startedAt;
        child.kill("SIGKILL");
      }, ms);
    };
    arm(loadLimit, () => `loading took longer than ${loadLimit / 1000} s (does a module run an endless loop at import time?)`);
    child.on("message", (msg: ChildMessage) => {
      switch (msg.type) {
        case "plan":
          attempt.plan = msg.cases;
          attempt.backend = msg.backend;
          break;
        case "start":
          current = { exercise: msg.exercise, case: msg.case };
          arm(opts.caseTimeoutMs, () => `timed out after ${opts.caseTimeoutMs / 1000} s: an endless loop, or far too slow?`);
          break;
        case "result":
          current = undefined;
          report(msg.result);
          arm(loadLimit, () => "the grader stalled between cases");
          break;
        case "done":
          // Everything is reported: no need to wait for the child's own shutdown.
          attempt.finished = true;
          child.kill("SIGKILL");
          break;
        case "fatal":
          attempt.fatal = { message: msg.message, usage: msg.usage };
          break;
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (!attempt.finished && !attempt.fatal && !attempt.timedOut) {
        attempt.stuckCase = current;
        attempt.elapsedMs = Date.now() - startedAt;
        attempt.why = `the grading process exited (${signal ?? `code ${code}`}) during this case: does the code call process.exit, or run out of memory?`;
      }
      resolve(attempt);
    });
    child.send(job);
  });
}
