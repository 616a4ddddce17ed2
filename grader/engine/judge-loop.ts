/**
 * The judge's side of grading, whatever runs the learner's code: Node's sandboxed child process
 * (isolate.ts) or the grading page's Web Worker (tools/browser/judge-run.ts). A transport starts a
 * fresh learner (`StartLearner`) and reports what it sends and when it stops; this module does the
 * rest, the same for both:
 *
 * - every message is checked against the protocol's schema (messages.ts) before anything reads it;
 * - outputs are accepted only for planned cases, each once;
 * - a watchdog, re-armed only by a planned case's first start, kills a learner whose case runs past
 *   `caseTimeoutMs`: that case is a timeout, its function's other cases "not run", and a fresh
 *   learner carries on with the cases left;
 * - each case is judged (judge.ts) against the reference's expected output, its inputs hash checked
 *   against frozen expectations, and failures are diagnosed (known mistakes, probes) as a whole or
 *   not at all, so that the same files always get the same report.
 */
import { judgeCase, probeFinding } from "./judge.js";
import { frozenMistake, type FrozenLesson } from "./frozen.js";
import { checkLearnerMessage, plainOutput, visibleControl } from "./messages.js";
import type { CaseOutput } from "./outputs.js";
import { caseKey, type LearnerRequest, type PlanEntry, type ProbeOutput } from "./protocol.js";
import type { CaseResult } from "./types.js";

/** setTimeout's largest delay; longer limits are refused by the command line. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** The most a learner's printing can add to a report. */
const PRINTED_LIMIT = 8_000;

/** The cases a grading will judge, in order, or why it cannot grade at all. */
export type LessonPlan = { backend: string; cases: PlanEntry[] } | { fatal: { message: string; usage: boolean } };

/** Where expected values come from: the reference process (isolate.ts), or frozen expectations. */
export interface Reference {
  plan: Promise<LessonPlan>;
  expected: Promise<Map<string, CaseOutput>>;
  /** Frozen input hashes by case key: a learner-side input that differs means a changed generator. */
  inputsHashes?: Map<string, string>;
  /** The known mistake the learner's failing output equals, if any. */
  mistakeOf(exercise: string, caseName: string, got: CaseOutput): Promise<string | undefined>;
  /** The reference's results on the case's probe variants. */
  probe(exercise: string, caseName: string): Promise<ProbeOutput[] | undefined>;
  stop(): void;
}

/** Frozen expectations as a Reference (of `only`'s exercises, when given): no process, no solutions/, no mutant source. */
export function frozenReference(frozen: FrozenLesson, only?: readonly string[]): Reference {
  const cases = frozen.cases.filter((c) => !only || only.includes(c.plan.exercise));
  const byKey = new Map(cases.map((c) => [caseKey(c.plan.exercise, c.plan.case), c]));
  return {
    plan: Promise.resolve({ backend: frozen.backend, cases: cases.map((c) => c.plan) }),
    expected: Promise.resolve(new Map([...byKey].map(([k, c]) => [k, c.expected]))),
    inputsHashes: new Map([...byKey].map(([k, c]) => [k, c.inputsHash])),
    mistakeOf: async (exercise, name, got) => {
      const c = byKey.get(caseKey(exercise, name));
      return c ? frozenMistake(c, got) : undefined;
    },
    probe: async (exercise, name) => byKey.get(caseKey(exercise, name))?.probe,
    stop: () => undefined,
  };
}

/** What a transport reports about one learner it started. */
export interface LearnerEvents {
  /** A message arrived (anything: it is checked here). */
  message(raw: unknown): void;
  /** The learner stopped (or was killed); `why` says how, for a stop during a case. */
  exit(why: string): void;
  /** The learner could not start its engine (the page's worker, before "loaded"). */
  fatal(message: string): void;
  /** The learner's code printed this (stdout, stderr). */
  printed(text: string): void;
}

/** One running learner, as the judge drives it. */
export interface LearnerHandle {
  send(request: LearnerRequest): void;
  /** Stops it at once; its `exit` follows. */
  kill(): void;
  /** Whether requests can still reach it. */
  connected(): boolean;
}

/** Starts a fresh learner (a process, a worker) that reports to `events`. */
export type StartLearner = (events: LearnerEvents) => LearnerHandle;

export interface JudgeOptions {
  /** Longest a single case may run. */
  caseTimeoutMs: number;
  /** Longest start-up (TensorFlow.js, the learner's module) may take. */
  loadTimeoutMs?: number;
  onResult?: (result: CaseResult) => void;
}

export interface JudgeJob {
  reference: Reference;
  start: StartLearner;
  only?: string[];
  /** Look up known mistakes for failing outputs (probes run either way). */
  hints: boolean;
  hiddenSalt?: number;
  /** The shown path of a planned case's file when it is missing, else undefined. */
  missingFile(file: string): string | undefined;
  /** The lesson whose files `npm run reset` restores (named in a missing file's message). */
  lesson: string;
  /** Lesson file → why it cannot be loaded at all (it did not bundle or compile). */
  loadErrors: ReadonlyMap<string, string>;
}

export interface JudgedRun {
  /** The backend the expectations were made on. */
  backend: string;
  /** The backend the learner's code ran on, as it reported it. */
  learnerBackend?: string;
  results: CaseResult[];
  fatal?: { message: string; usage: boolean };
  /** What the learner's code printed, control characters made visible. */
  printed: string;
}

interface LearnerAttempt {
  /** Every case ran and the learner is waiting for probe requests. */
  finished: boolean;
  /** The learner's module loaded (a stop before this is a stop at import). */
  loaded: boolean;
  backend?: string;
  stuck?: { exercise: string; case: string };
  timedOut: boolean;
  why?: string;
  /** Set when the learner could not start its engine. */
  fatal?: string;
  elapsedMs: number;
  handle: LearnerHandle;
}

interface LearnerSink {
  output(exercise: string, caseName: string, output: CaseOutput): void;
  /** A message about this case that failed the protocol's schema (why, in a few words). */
  malformed(exercise: string, caseName: string, why: string): void;
  printed(text: string): void;
  /** Whether a case key is planned; undefined while the plan is not known yet. */
  planned(key: string): boolean | undefined;
}

/** How long start-up may take: the given limit, else max(case limit, 30 s). */
function loadLimitMs(opts: JudgeOptions): number {
  return Math.min(opts.loadTimeoutMs ?? Math.max(opts.caseTimeoutMs, 30_000), MAX_TIMER_MS);
}

function runLearner(start: StartLearner, request: LearnerRequest, opts: JudgeOptions, sink: LearnerSink, probeWaiters: Map<string, (o: ProbeOutput[]) => void>): Promise<LearnerAttempt> {
  return new Promise((resolve) => {
    const started = new Set<string>();
    let current: { exercise: string; case: string } | undefined;
    let startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loadLimit = loadLimitMs(opts);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const arm = (ms: number, why: () => string) => {
      clearTimeout(timer);
      startedAt = Date.now();
      timer = setTimeout(() => {
        attempt.timedOut = true;
        attempt.why = why();
        attempt.stuck = current;
        attempt.elapsedMs = Date.now() - startedAt;
        attempt.handle.kill();
      }, ms);
    };
    const events: LearnerEvents = {
      printed: (text) => sink.printed(text),
      fatal(message) {
        if (attempt.loaded || attempt.fatal !== undefined) return;
        attempt.fatal = message;
        attempt.why = message;
        attempt.handle.kill();
      },
      message(raw) {
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
            if (started.has(key) || sink.planned(key) === false) break;
            started.add(key);
            current = { exercise: m.exercise, case: m.case };
            arm(opts.caseTimeoutMs, () => `timed out after ${opts.caseTimeoutMs / 1000} s: an endless loop, or far too slow?`);
            break;
          }
          case "output":
            sink.output(m.exercise, m.case, m.output);
            // Only the output of the case that started re-arms the watchdog (forged outputs cannot).
            if (current && caseKey(current.exercise, current.case) === caseKey(m.exercise, m.case)) {
              current = undefined;
              arm(loadLimit, () => "the grading process stalled between cases");
            }
            break;
          case "done":
            attempt.finished = true;
            settle();
            break;
          case "probe": {
            const key = caseKey(m.exercise, m.case);
            probeWaiters.get(key)?.(m.outputs);
            probeWaiters.delete(key);
            break;
          }
        }
      },
      exit(why) {
        for (const w of probeWaiters.values()) w([]);
        probeWaiters.clear();
        if (!attempt.finished && !attempt.timedOut && attempt.fatal === undefined) {
          attempt.stuck = current;
          attempt.elapsedMs = Date.now() - startedAt;
          attempt.why = why;
        }
        settle();
      },
    };
    const attempt: LearnerAttempt = { finished: false, loaded: false, timedOut: false, elapsedMs: 0, handle: undefined as unknown as LearnerHandle };
    attempt.handle = start(events);
    arm(loadLimit, () => `loading took longer than ${loadLimit / 1000} s (does a module run an endless loop at import time?)`);
    attempt.handle.send(request);
  });
}

/**
 * Judges a learner's lesson: starts learners through `job.start` (a fresh one after each timeout or
 * crash), accepts their outputs for the reference's planned cases only, each once, and returns every
 * planned case's result in plan order. Every learner it started is killed before it returns.
 */
export async function judgeLearner(job: JudgeJob, opts: JudgeOptions): Promise<JudgedRun> {
  const learners: LearnerHandle[] = [];
  try {
    return await judgeRun(job, opts, learners);
  } finally {
    learners.forEach((l) => l.kill());
  }
}

async function judgeRun(job: JudgeJob, opts: JudgeOptions, learners: LearnerHandle[]): Promise<JudgedRun> {
  const { reference } = job;
  /** Every output the learners sent, in order; checked against the plan once it is known. */
  const received: Array<{ key: string; output: CaseOutput } | { key: string; malformed: string }> = [];
  let printed = "";
  let planKeys: Set<string> | undefined;
  void reference.plan.then((p) => {
    if (!("fatal" in p)) planKeys = new Set(p.cases.map((c) => caseKey(c.exercise, c.case)));
  });
  const sink: LearnerSink = {
    planned: (key) => planKeys?.has(key),
    output: (exercise, name, output) => received.push({ key: caseKey(exercise, name), output }),
    malformed: (exercise, name, why) => received.push({ key: caseKey(exercise, name), malformed: why }),
    printed(text) {
      if (printed.length < PRINTED_LIMIT) printed += visibleControl(text).slice(0, PRINTED_LIMIT - printed.length);
    },
  };
  const probeWaiters = new Map<string, (o: ProbeOutput[]) => void>();
  // Hidden cases need the reference process (frozen expectations have none): without it, none are run.
  const hiddenSalt = reference.inputsHashes ? undefined : job.hiddenSalt;
  // The learner starts beside the reference: it needs no plan to run the cases.
  let attempt = await runLearner(job.start, { type: "run", only: job.only, skip: [], hiddenSalt }, opts, sink, probeWaiters);
  learners.push(attempt.handle);
  if (attempt.fatal !== undefined) return { backend: "", results: [], fatal: { message: attempt.fatal, usage: false }, printed: "" };
  const planned = await reference.plan;
  if ("fatal" in planned) return { backend: "", results: [], fatal: planned.fatal, printed: "" };
  const plan = new Map(planned.cases.map((p) => [caseKey(p.exercise, p.case), p]));
  const outputs = new Map<string, CaseOutput>();
  /** Verdicts decided here without an output: timeouts, crashes, tampering, files that did not load. */
  const decided = new Map<string, CaseResult>();
  let accepted = 0;
  const accept = () => {
    for (; accepted < received.length; accepted++) {
      const got = received[accepted];
      const key = got.key;
      const p = plan.get(key);
      if (!p || unrunnable.has(key)) continue; // not a case the learner may answer: ignored
      if ("malformed" in got) {
        outputs.delete(key);
        if (!decided.has(key)) decided.set(key, { ...p, status: "error", message: `the result your code's process sent for this case does not fit the grading protocol (${got.malformed}): something in the code under test wrote to the grading channel`, ms: 0 });
        continue;
      }
      const output = got.output;
      if (outputs.has(key) || decided.has(key)) {
        outputs.delete(key);
        if (!decided.has(key)) decided.set(key, { ...p, status: "error", message: "a second result arrived for this case: something in the code under test wrote to the grading channel", ms: 0 });
      } else outputs.set(key, output);
    }
  };
  // Cases that cannot run at all: the file is missing, or it did not load.
  for (const [key, p] of plan) {
    const shown = job.missingFile(p.file);
    if (shown !== undefined) decided.set(key, { ...p, status: "error", message: `${shown} is missing: restore it with \`npm run reset ${job.lesson}\` or \`git checkout -- ${shown}\``, ms: 0 });
    else if (job.loadErrors.has(p.file)) decided.set(key, { ...p, status: "error", message: job.loadErrors.get(p.file)!, loadError: true, ms: 0 });
  }
  const unrunnable = new Set(decided.keys());
  for (;;) {
    accept();
    const remaining = [...plan.keys()].filter((k) => !outputs.has(k) && !decided.has(k));
    if (attempt.finished || remaining.length === 0) break;
    if (!attempt.loaded) {
      // Stopped before the learner's module finished loading: no case can run.
      const why = attempt.timedOut ? attempt.why! : `your code stopped the grading process while loading (${attempt.why?.replace(/^the grading (process|worker) /, "") ?? "no reason given"})`;
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
    attempt = await runLearner(job.start, { type: "run", only: job.only, skip, hiddenSalt }, opts, sink, probeWaiters);
    learners.push(attempt.handle);
  }
  accept();

  const expected = await reference.expected;
  const results: CaseResult[] = [];
  for (const [key, p] of plan) {
    const got = outputs.get(key);
    const want = expected.get(key) ?? { status: "error" as const, message: "the reference process sent no expected value", ms: 0 };
    const frozenHash = reference.inputsHashes?.get(key);
    if (got && frozenHash !== undefined && got.inputsHash !== undefined && got.inputsHash !== frozenHash) {
      decided.set(key, { ...p, status: "error", message: "grader bug: this case's inputs differ from those its expectations were frozen with (a changed generator?): ask for a new release of the course", ms: 0 });
    }
    const result =
      decided.get(key) ??
      (got
        ? judgeCase(p, got, want, { checks: p.checks, outputOrder: p.outputOrder })
        : { ...p, status: "error" as const, message: "no result came back for this case: the grading process stopped early, or the code under test interfered with it", ms: 0 });
    results.push(result);
  }

  // Diagnosis of failures: known mistakes and probes. Neither changes a verdict. It completes as a
  // whole or not at all (one deadline for all of it), so the same files always get the same report.
  const probing = attempt.finished ? attempt.handle : undefined;
  const findings = new Map<CaseResult, { mistake?: string; where?: string }>();
  const diagnosis = Promise.all(
    results.map(async (r) => {
      if (r.status !== "failed") return;
      const p = plan.get(caseKey(r.exercise, r.case))!;
      const got = outputs.get(caseKey(r.exercise, r.case))!;
      const found: { mistake?: string; where?: string } = {};
      const tasks: Array<Promise<void>> = [];
      if (job.hints && r.wrongValues) {
        tasks.push(
          reference.mistakeOf(r.exercise, r.case, got).then((m) => {
            found.mistake = m;
          }),
        );
      }
      if (p.probeUnit && probing?.connected()) {
        const mine = new Promise<ProbeOutput[]>((resolve) => {
          probeWaiters.set(caseKey(r.exercise, r.case), resolve);
          probing.send({ type: "probe", exercise: r.exercise, case: r.case });
        });
        const theirs = reference.probe(r.exercise, r.case);
        tasks.push(
          Promise.all([mine, theirs]).then(([learner, ref]) => {
            found.where = ref ? probeFinding(p.probeUnit!, p.tolerance, learner, ref) : undefined;
          }),
        );
      }
      await Promise.all(tasks);
      findings.set(r, found);
    }),
  );
  if ((await withTimeout(diagnosis.then(() => true), diagnosisLimitMs(opts))) === true) {
    for (const [r, f] of findings) {
      if (f.mistake !== undefined) r.mistake = f.mistake;
      if (f.where) r.details = [...(r.details ?? []), f.where];
    }
  }
  for (const r of results) opts.onResult?.(r);
  return { backend: planned.backend, learnerBackend: attempt.backend, results, printed };
}

/** How long the diagnosis of a lesson's failures (known mistakes, probes) may take in all. */
function diagnosisLimitMs(opts: JudgeOptions): number {
  return Math.min(Math.max(opts.caseTimeoutMs * 3, 30_000), MAX_TIMER_MS);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), Math.min(ms, MAX_TIMER_MS))))]).finally(() => clearTimeout(timer));
}
