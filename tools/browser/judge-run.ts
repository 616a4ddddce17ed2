/**
 * The judge of grading in a browser: the twin of grader/engine/isolate.ts's parent, with a Web
 * Worker for the learner's process and the lesson's frozen expectations for the reference. It plans
 * the cases from the frozen expectations, starts a worker with the learner's compiled files,
 * accepts outputs only for planned cases, each once (every message checked by the Node grader's
 * schema), terminates a worker whose case runs past the limit (that case "timeout", the function's
 * other cases "not run", a fresh worker for the rest), checks each case's inputs hash against the
 * frozen one, judges with judge.ts and names known mistakes from the frozen fingerprints.
 */
import { judgeCase, probeFinding } from "../../grader/engine/judge.js";
import { frozenMistake, type FrozenCase, type FrozenLesson } from "../../grader/engine/frozen.js";
import { checkLearnerMessage, plainOutput, visibleControl } from "../../grader/engine/messages.js";
import { caseKey, type LearnerRequest, type PlanEntry, type ProbeOutput } from "../../grader/engine/protocol.js";
import type { CaseOutput } from "../../grader/engine/outputs.js";
import type { CaseResult } from "../../grader/engine/types.js";
import type { CompiledFile, WorkerStart } from "./protocol.js";

export interface BrowserJob {
  lesson: string;
  /** The learner's files by name, as given (a name absent here is a missing file). */
  files: Record<string, string>;
  compiled: CompiledFile[];
  frozen: FrozenLesson;
  workerUrl: string;
  casesUrl: string;
  dataUrl: string;
  only?: string[];
  /** The worker's TensorFlow.js backend (default cpu, as the Node grader's learner process). */
  backend?: "cpu" | "webgl";
}

export interface BrowserGradeOptions {
  /** Longest a single case may run (the Node grader's default: 10 s). */
  caseTimeoutMs: number;
  /** Longest start-up may take (default: the Node grader's, max(case limit, 30 s)). */
  loadTimeoutMs?: number;
}

export interface BrowserRun {
  backend: string;
  results: CaseResult[];
  fatal?: { message: string; usage: boolean };
  /** What the learner's code printed is not captured in the browser (it goes to the console). */
  printed: string;
}

/** The folder a lesson's files are said to live in; stack frames and messages name it. */
export function implDirOf(lesson: string): string {
  return `/exercises/${lesson}`;
}

interface Attempt {
  finished: boolean;
  loaded: boolean;
  backend?: string;
  stuck?: { exercise: string; case: string };
  timedOut: boolean;
  why?: string;
  elapsedMs: number;
  worker: Worker;
  fatal?: string;
}

interface Sink {
  output(exercise: string, caseName: string, output: CaseOutput): void;
  malformed(exercise: string, caseName: string, why: string): void;
  planned(key: string): boolean;
}

function runWorker(job: BrowserJob, request: LearnerRequest, opts: BrowserGradeOptions, sink: Sink, probeWaiters: Map<string, (o: ProbeOutput[]) => void>): Promise<Attempt> {
  return new Promise((resolve) => {
    const worker = new Worker(job.workerUrl, { type: "module", name: `grading ${job.lesson}` });
    const attempt: Attempt = { finished: false, loaded: false, timedOut: false, elapsedMs: 0, worker };
    const started = new Set<string>();
    let current: { exercise: string; case: string } | undefined;
    let startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loadLimit = opts.loadTimeoutMs ?? Math.max(opts.caseTimeoutMs, 30_000);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const stop = () => {
      worker.terminate();
      for (const w of probeWaiters.values()) w([]);
      probeWaiters.clear();
      settle();
    };
    const arm = (ms: number, why: () => string) => {
      clearTimeout(timer);
      startedAt = Date.now();
      timer = setTimeout(() => {
        attempt.timedOut = true;
        attempt.why = why();
        attempt.stuck = current;
        attempt.elapsedMs = Date.now() - startedAt;
        stop();
      }, ms);
    };
    arm(loadLimit, () => `loading took longer than ${loadLimit / 1000} s (does a module run an endless loop at import time?)`);
    worker.onerror = (e) => {
      e.preventDefault();
      if (attempt.finished || attempt.timedOut) return;
      attempt.stuck = current;
      attempt.elapsedMs = Date.now() - startedAt;
      attempt.why = `the grading worker stopped (${e.message || "an uncaught error"}) during this case: does the code throw from a timer or a promise it does not wait for?`;
      stop();
    };
    worker.onmessage = (e: MessageEvent<unknown>) => {
      const raw = e.data as { type?: unknown; message?: unknown } | null;
      if (!attempt.loaded && raw && raw.type === "fatal" && typeof raw.message === "string") {
        attempt.fatal = raw.message;
        attempt.why = raw.message;
        stop();
        return;
      }
      const checked = checkLearnerMessage(raw);
      if (!("message" in checked)) {
        if (checked.exercise !== undefined && checked.case !== undefined) sink.malformed(checked.exercise, checked.case, checked.malformed);
        return;
      }
      const m = checked.message;
      if (m.type === "output") m.output = plainOutput(m.output);
      if (m.type === "probe") m.outputs = m.outputs.map((p) => ({ label: visibleControl(p.label), output: plainOutput(p.output) }));
      if (attempt.finished && m.type !== "probe") return;
      switch (m.type) {
        case "loaded":
          attempt.loaded = true;
          attempt.backend = m.backend;
          break;
        case "start": {
          const key = caseKey(m.exercise, m.case);
          // Only a planned case's first start re-arms the watchdog: forged starts cannot keep a hang alive.
          if (started.has(key) || !sink.planned(key)) break;
          started.add(key);
          current = { exercise: m.exercise, case: m.case };
          arm(opts.caseTimeoutMs, () => `timed out after ${opts.caseTimeoutMs / 1000} s: an endless loop, or far too slow?`);
          break;
        }
        case "output":
          sink.output(m.exercise, m.case, m.output);
          if (current && caseKey(current.exercise, current.case) === caseKey(m.exercise, m.case)) {
            current = undefined;
            arm(loadLimit, () => "the grading process stalled between cases");
          }
          break;
        case "done":
          attempt.finished = true;
          clearTimeout(timer);
          settle();
          break;
        case "probe": {
          const key = caseKey(m.exercise, m.case);
          probeWaiters.get(key)?.(m.outputs);
          probeWaiters.delete(key);
          break;
        }
      }
    };
    const start: WorkerStart = { type: "start", lesson: job.lesson, casesUrl: job.casesUrl, dataUrl: job.dataUrl, implDir: implDirOf(job.lesson), files: job.compiled, backend: job.backend ?? "cpu" };
    worker.postMessage(start);
    worker.postMessage(request);
  });
}

/** Grades a lesson in the page against its frozen expectations; the report's cases in plan order. */
export async function gradeInBrowser(job: BrowserJob, opts: BrowserGradeOptions): Promise<BrowserRun> {
  const workers: Worker[] = [];
  try {
    return await judgeRun(job, opts, workers);
  } finally {
    workers.forEach((w) => w.terminate());
  }
}

async function judgeRun(job: BrowserJob, opts: BrowserGradeOptions, workers: Worker[]): Promise<BrowserRun> {
  const frozenCases = job.frozen.cases.filter((c) => !job.only || job.only.includes(c.plan.exercise));
  const byKey = new Map<string, FrozenCase>(frozenCases.map((c) => [caseKey(c.plan.exercise, c.plan.case), c]));
  const plan = new Map<string, PlanEntry>([...byKey].map(([k, c]) => [k, c.plan]));
  const received: Array<{ key: string; output: CaseOutput } | { key: string; malformed: string }> = [];
  const sink: Sink = {
    planned: (key) => plan.has(key),
    output: (exercise, name, output) => received.push({ key: caseKey(exercise, name), output }),
    malformed: (exercise, name, why) => received.push({ key: caseKey(exercise, name), malformed: why }),
  };
  const probeWaiters = new Map<string, (o: ProbeOutput[]) => void>();
  const outputs = new Map<string, CaseOutput>();
  const decided = new Map<string, CaseResult>();
  // Cases that cannot run at all: the file is missing, or it did not compile.
  const compileErrors = new Map(job.compiled.flatMap((f) => ("error" in f ? [[f.file, f.error] as const] : [])));
  for (const [key, p] of plan) {
    const shown = `exercises/${job.lesson}/${p.file}`;
    if (job.files[p.file] === undefined) decided.set(key, { ...p, status: "error", message: `${shown} is missing: restore it with \`npm run reset ${job.lesson}\` or \`git checkout -- ${shown}\``, ms: 0 });
    else if (compileErrors.has(p.file)) decided.set(key, { ...p, status: "error", message: compileErrors.get(p.file)!, loadError: true, ms: 0 });
  }
  const unrunnable = new Set(decided.keys());
  let accepted = 0;
  const accept = () => {
    for (; accepted < received.length; accepted++) {
      const got = received[accepted];
      const key = got.key;
      const p = plan.get(key);
      if (!p || unrunnable.has(key)) continue;
      if ("malformed" in got) {
        outputs.delete(key);
        if (!decided.has(key)) decided.set(key, { ...p, status: "error", message: `the result your code's process sent for this case does not fit the grading protocol (${got.malformed}): something in the code under test wrote to the grading channel`, ms: 0 });
        continue;
      }
      if (outputs.has(key) || decided.has(key)) {
        outputs.delete(key);
        if (!decided.has(key)) decided.set(key, { ...p, status: "error", message: "a second result arrived for this case: something in the code under test wrote to the grading channel", ms: 0 });
      } else outputs.set(key, got.output);
    }
  };
  let attempt = await runWorker(job, { type: "run", only: job.only, skip: [] }, opts, sink, probeWaiters);
  workers.push(attempt.worker);
  if (attempt.fatal) return { backend: "", results: [], fatal: { message: attempt.fatal, usage: false }, printed: "" };
  for (;;) {
    accept();
    const remaining = [...plan.keys()].filter((k) => !outputs.has(k) && !decided.has(k));
    if (attempt.finished || remaining.length === 0) break;
    if (!attempt.loaded) {
      const why = attempt.timedOut ? attempt.why! : `your code stopped the grading process while loading (${attempt.why?.replace(/^the grading worker /, "") ?? "no reason given"})`;
      for (const k of remaining) decided.set(k, { ...plan.get(k)!, status: attempt.timedOut ? "timeout" : "error", message: why, ms: attempt.elapsedMs });
      break;
    }
    const stuckKey = attempt.stuck ? caseKey(attempt.stuck.exercise, attempt.stuck.case) : remaining[0];
    const stuck = plan.get(stuckKey);
    if (!stuck) break;
    const status = attempt.timedOut ? "timeout" : "error";
    decided.set(stuckKey, { ...stuck, status, message: attempt.why, ms: attempt.elapsedMs });
    for (const [k, p] of plan) {
      if (p.exercise !== stuck.exercise || outputs.has(k) || decided.has(k)) continue;
      decided.set(k, { ...p, status, message: `not run: an earlier case of ${p.exercise} ${attempt.timedOut ? "timed out" : "crashed the grader"}`, ms: 0 });
    }
    const skip = [...plan.keys()].filter((k) => outputs.has(k) || decided.has(k));
    if (skip.length === plan.size) break;
    attempt = await runWorker(job, { type: "run", only: job.only, skip }, opts, sink, probeWaiters);
    workers.push(attempt.worker);
  }
  accept();

  const results: CaseResult[] = [];
  for (const [key, p] of plan) {
    const got = outputs.get(key);
    const c = byKey.get(key)!;
    if (got && got.inputsHash !== undefined && got.inputsHash !== c.inputsHash) {
      decided.set(key, { ...p, status: "error", message: "grader bug: this case's inputs differ from those its expectations were frozen with (a changed generator?): ask for a new release of the course", ms: 0 });
    }
    const result =
      decided.get(key) ??
      (got
        ? judgeCase(p, got, c.expected, { checks: p.checks, outputOrder: p.outputOrder })
        : { ...p, status: "error" as const, message: "no result came back for this case: the grading process stopped early, or the code under test interfered with it", ms: 0 });
    results.push(result);
  }

  // Diagnosis of failures: known mistakes (frozen fingerprints) and probes; neither changes a verdict.
  const probing = attempt.finished ? attempt.worker : undefined;
  const findings = new Map<CaseResult, { mistake?: string; where?: string }>();
  const diagnosis = Promise.all(
    results.map(async (r) => {
      if (r.status !== "failed") return;
      const key = caseKey(r.exercise, r.case);
      const p = plan.get(key)!;
      const c = byKey.get(key)!;
      const got = outputs.get(key)!;
      const found: { mistake?: string; where?: string } = {};
      if (r.wrongValues) found.mistake = frozenMistake(c, got);
      if (p.probeUnit && probing) {
        const mine = new Promise<ProbeOutput[]>((resolve) => {
          probeWaiters.set(key, resolve);
          probing.postMessage({ type: "probe", exercise: r.exercise, case: r.case } satisfies LearnerRequest);
        });
        const learner = await mine;
        found.where = c.probe ? probeFinding(p.probeUnit, p.tolerance, learner, c.probe) : undefined;
      }
      findings.set(r, found);
    }),
  );
  const limit = Math.max(opts.caseTimeoutMs * 3, 30_000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const complete = await Promise.race([diagnosis.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), limit)))]);
  clearTimeout(timer);
  if (complete) {
    for (const [r, f] of findings) {
      if (f.mistake !== undefined) r.mistake = f.mistake;
      if (f.where) r.details = [...(r.details ?? []), f.where];
    }
  }
  return { backend: attempt.backend ?? job.frozen.backend, results, printed: "" };
}
