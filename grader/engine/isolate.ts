/**
 * Grades a learner's lesson the way an instructor can trust: three processes, and the verdict made
 * only in this one.
 *
 * - The reference process (reference-child.ts) plans the cases and computes the expected outputs.
 *   It never loads learner code.
 * - The learner's process runs a bundle of the learner's files (bundle.ts) inside the walls of
 *   sandbox.ts: Node's permission model (no writes, no processes, no workers; reads of its bundle,
 *   which holds the only data files it needs, and of node_modules only), no inspector by signal,
 *   and on Linux its own PID, network and IPC namespaces. It sends its outputs as data, each
 *   message checked against a schema here (messages.ts). It is its own process group, killed
 *   whole when grading ends.
 * - This process accepts outputs only for planned cases, each once, compares them with the expected
 *   outputs (judge.ts) and passes a lesson only when every planned case passed.
 *
 * A learner function that never returns is stoppable only from outside: when a case runs past
 * `caseTimeoutMs` the learner's process is killed, that case is a timeout, the function's other
 * cases are "not run", and a fresh process carries on with the other functions.
 */
import { fork, type ChildProcess, type ForkOptions } from "node:child_process";
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleLearner, refusedLessonFolder, type LearnerBundle } from "./bundle.js";
import { judgeCase, matchMistake, probeFinding } from "./judge.js";
import type { CaseOutput } from "./outputs.js";
import { ROOT, paths } from "./paths.js";
import { frozenMistake, readFrozen, type FrozenLesson } from "./frozen.js";
import { learnerRunLessons } from "../../lib/preloaded.js";
import { checkLearnerMessage, plainOutput, visibleControl } from "./messages.js";
import { caseKey, type GradeJob, type LearnerRequest, type PlanEntry, type ProbeOutput, type ReferenceMessage, type ReferenceRequest } from "./protocol.js";
import { childLauncher, guardInspectorSignal, inspectorSignalFlags, osSandboxNote, sandboxNodeFlags, unsupportedNode } from "./sandbox.js";
import type { CaseResult } from "./types.js";

// A learner's process may send this one SIGUSR1 (no namespaces here, or a process above): keep the inspector shut.
guardInspectorSignal();

export interface IsolatedOptions {
  /** Longest a single case may run. */
  caseTimeoutMs: number;
  /** Longest start-up (TensorFlow.js, the learner's module) may take. */
  loadTimeoutMs?: number;
  onResult?: (result: CaseResult) => void;
  /** The lesson's planned cases as soon as they are known (or why there are none), before any learner code runs. */
  onPlan?: (plan: LessonPlan) => void;
  /** When given, the learner's code is bundled and started only once this settles (the plan is made at once). */
  begin?: Promise<void>;
}

export interface IsolatedRun {
  backend: string;
  results: CaseResult[];
  /** Set when grading could not run at all (the reference failed, a backend did not start, …). */
  fatal?: { message: string; usage: boolean };
  /** What the learner's code printed (stdout and stderr), control characters made visible, kept apart from the report. */
  printed: string;
  /** Learner files the bundle held, absolute path → sha256 of what was graded (bundle.ts). */
  learnerInputs?: Map<string, string>;
  /** Set when the learner's process ran without OS namespaces here: one line saying so. */
  sandboxNote?: string;
}

const REFERENCE_CHILD = fileURLToPath(new URL("./reference-child.ts", import.meta.url));
/** The most a learner's printing can add to a report. */
const PRINTED_LIMIT = 8_000;
/** setTimeout's largest delay; longer limits are refused by the command line. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Kills a child and every process it started (it leads its own process group). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

const live = new Set<ChildProcess>();
process.once("exit", () => live.forEach(killGroup));

function spawn(file: string, execArgv: string[], output: "pipe" | "ignore", wrap?: { command: string; args: string[] }): ChildProcess {
  const options: ForkOptions = {
    execArgv,
    serialization: "advanced",
    stdio: ["ignore", output, "pipe", "ipc"],
    detached: true,
    env: { ...process.env, NODE_OPTIONS: "" },
  };
  // Through a launcher (`setpriv …`, `unshare …`) the IPC channel's descriptor passes through to node.
  const child = wrap ? fork(file, [], { ...options, execPath: wrap.command, execArgv: [...wrap.args, process.execPath, ...execArgv] }) : fork(file, [], options);
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

// ---------------------------------------------------------------- the reference process

/** Where expected values come from: the reference process, or frozen expectations (a student edition). */
/** The cases a grading will judge, in order, or why it cannot grade at all. */
export type LessonPlan = { backend: string; cases: PlanEntry[] } | { fatal: { message: string; usage: boolean } };

interface Reference {
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

/** Frozen expectations as a Reference: no process, no solutions/, no mutant source. */
function frozenReference(job: GradeJob, frozen: FrozenLesson): Reference {
  const cases = frozen.cases.filter((c) => !job.only || job.only.includes(c.plan.exercise));
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

/**
 * The reference process when solutions/<lesson> is here, else the lesson's frozen expectations.
 * Frozen expectations win too in an edition that withholds lib/'s code of an unpublished lesson
 * (lib/preloaded.ts: the tokenizer without lesson 4): there the reference process would run the
 * learner's lesson-4 functions, while the frozen values were made with the course's own.
 */
function referenceFor(job: GradeJob, limitMs: number): Reference {
  const frozen = readFrozen(job.lesson);
  if (existsSync(join(paths.solutions, job.lesson)) && !(frozen && learnerRunLessons(paths.solutions).length > 0)) return startReference(job, limitMs);
  if (frozen) return frozenReference(job, frozen);
  const fatal = { message: `${job.lesson} has neither its reference solution (solutions/${job.lesson}) nor frozen expectations (grader/expected/${job.lesson}.json) to grade against`, usage: false };
  return { plan: Promise.resolve({ fatal }), expected: Promise.resolve(new Map()), mistakeOf: async () => undefined, probe: async () => undefined, stop: () => undefined };
}

function startReference(job: GradeJob, limitMs: number): Reference {
  const child = spawn(REFERENCE_CHILD, ["--import", "tsx", ...inspectorSignalFlags()], "ignore", childLauncher(false));
  // Its stderr is the course's own (a crash of the reference): passed on, never mixed with the learner's.
  child.stderr?.on("data", (d: Buffer) => process.stderr.write(d));
  const expected = new Map<string, CaseOutput>();
  const waiting = new Map<string, (m: Extract<ReferenceMessage, { type: "mutants" | "probe" }> | undefined) => void>();
  let resolvePlan!: (v: Awaited<Reference["plan"]>) => void;
  let resolveExpected!: (v: Map<string, CaseOutput>) => void;
  const plan = new Promise<Awaited<Reference["plan"]>>((r) => (resolvePlan = r));
  const done = new Promise<Map<string, CaseOutput>>((r) => (resolveExpected = r));
  const fail = (message: string, usage = false) => {
    resolvePlan({ fatal: { message, usage } });
    resolveExpected(expected);
  };
  const timer = setTimeout(() => {
    fail(`the reference process took longer than ${limitMs / 1000} s`);
    killGroup(child);
  }, limitMs);
  child.on("message", (m: ReferenceMessage) => {
    switch (m.type) {
      case "plan":
        resolvePlan({ backend: m.backend, cases: m.cases });
        break;
      case "expected":
        expected.set(caseKey(m.exercise, m.case), m.output);
        break;
      case "done":
        clearTimeout(timer);
        resolveExpected(expected);
        break;
      case "fatal":
        clearTimeout(timer);
        fail(m.message, m.usage);
        break;
      default: {
        const key = `${m.type}:${caseKey(m.exercise, m.case)}`;
        waiting.get(key)?.(m);
        waiting.delete(key);
      }
    }
  });
  child.on("exit", (code, signal) => {
    clearTimeout(timer);
    fail(`the reference process stopped (${signal ?? `code ${code}`})`);
    for (const w of waiting.values()) w(undefined);
    waiting.clear();
  });
  child.send({ type: "plan", lesson: job.lesson, only: job.only, hiddenSalt: job.hiddenSalt } satisfies ReferenceRequest);
  const request = (req: Exclude<ReferenceRequest, { type: "plan" }>) =>
    new Promise<Extract<ReferenceMessage, { type: "mutants" | "probe" }> | undefined>((resolve) => {
      if (!child.connected) return resolve(undefined);
      waiting.set(`${req.type}:${caseKey(req.exercise, req.case)}`, resolve);
      child.send(req);
    });
  return {
    plan,
    expected: done,
    mistakeOf: async (exercise, name, got) => {
      const m = await request({ type: "mutants", exercise, case: name });
      return m?.type === "mutants" ? matchMistake(got, m.outputs) : undefined;
    },
    probe: async (exercise, name) => {
      const m = await request({ type: "probe", exercise, case: name });
      return m?.type === "probe" ? m.outputs : undefined;
    },
    stop: () => killGroup(child),
  };
}

// ---------------------------------------------------------------- the learner's process

interface LearnerAttempt {
  /** Every case ran and the process is waiting for probe requests. */
  finished: boolean;
  /** The learner's module loaded (a crash before this is a crash at import). */
  loaded: boolean;
  backend?: string;
  stuck?: { exercise: string; case: string };
  timedOut: boolean;
  why?: string;
  elapsedMs: number;
  child: ChildProcess;
}

interface LearnerSink {
  output(exercise: string, caseName: string, output: CaseOutput): void;
  /** A message about this case that failed the protocol's schema (why, in a few words). */
  malformed(exercise: string, caseName: string, why: string): void;
  printed(text: string): void;
  /** Whether a case key is planned; undefined while the plan is not known yet. */
  planned(key: string): boolean | undefined;
}

function runLearner(bundle: LearnerBundle, request: LearnerRequest, opts: IsolatedOptions, sink: LearnerSink, probeWaiters: Map<string, (o: ProbeOutput[]) => void>): Promise<LearnerAttempt> {
  return new Promise((resolve) => {
    // No loader, no writes, no processes, no workers, reads of its bundle and the runtime only.
    // Each folder as named and as its real path: module resolution checks the path it walks, loading
    // the resolved one, so a symlinked node_modules (a student edition's) needs both.
    const folders = [bundle.dir, join(ROOT, "node_modules")].flatMap((d) => [...new Set([d, realpathSync(d)])]);
    const flags = sandboxNodeFlags({ folders, files: [] });
    const child = spawn(bundle.entry, ["--enable-source-maps", ...flags], "pipe", childLauncher(true));
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding("utf8");
      stream?.on("data", (d: string) => sink.printed(d));
    }
    const attempt: LearnerAttempt = { finished: false, loaded: false, timedOut: false, elapsedMs: 0, child };
    const started = new Set<string>();
    let current: { exercise: string; case: string } | undefined;
    let startedAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const loadLimit = Math.min(opts.loadTimeoutMs ?? Math.max(opts.caseTimeoutMs, 30_000), MAX_TIMER_MS);
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
        killGroup(child);
      }, ms);
    };
    arm(loadLimit, () => `loading took longer than ${loadLimit / 1000} s (does a module run an endless loop at import time?)`);
    child.on("message", (raw: unknown) => {
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
    });
    child.on("exit", (code, signal) => {
      for (const w of probeWaiters.values()) w([]);
      probeWaiters.clear();
      if (!attempt.finished && !attempt.timedOut) {
        attempt.stuck = current;
        attempt.elapsedMs = Date.now() - startedAt;
        attempt.why = `the grading process exited (${signal ?? `code ${code}`}) during this case: does the code call process.exit, or run out of memory?`;
      }
      settle();
    });
    child.send(request);
  });
}

// ---------------------------------------------------------------- the parent's judgement

/** The learner's .ts files of the lesson folder (the ones a bundle can load). */
function lessonFiles(implDir: string): string[] {
  return existsSync(implDir) ? readdirSync(implDir).filter((f) => f.endsWith(".ts")).sort() : [];
}

export async function gradeIsolated(job: GradeJob, opts: IsolatedOptions): Promise<IsolatedRun> {
  // Refused before anything starts: neither is the learner's code's fault or doing.
  const unsupported = unsupportedNode();
  if (unsupported) return { backend: "", results: [], fatal: { message: unsupported, usage: true }, printed: "" };
  const refused = job.reference ? undefined : refusedLessonFolder(job.lesson, job.implDir);
  if (refused) return { backend: "", results: [], fatal: { message: refused, usage: true }, printed: "" };
  const limit = Math.min(opts.loadTimeoutMs ?? Math.max(opts.caseTimeoutMs, 30_000), MAX_TIMER_MS);
  const reference = referenceFor(job, Math.min(limit * 4, MAX_TIMER_MS));
  if (opts.onPlan) void reference.plan.then(opts.onPlan);
  let bundle: LearnerBundle | undefined;
  const learners: ChildProcess[] = [];
  try {
    await opts.begin;
    bundle = await bundleLearner(job.lesson, job.implDir, lessonFiles(job.implDir));
    const run = await judgeRun(job, opts, reference, bundle, learners);
    const note = osSandboxNote();
    return { ...run, learnerInputs: bundle.learnerInputs, ...(note ? { sandboxNote: note } : {}) };
  } finally {
    reference.stop();
    learners.forEach(killGroup);
    bundle?.dispose();
  }
}

async function judgeRun(job: GradeJob, opts: IsolatedOptions, reference: Reference, bundle: LearnerBundle, learners: ChildProcess[]): Promise<IsolatedRun> {
  /** Every output the learner's processes sent, in order; checked against the plan once it is known. */
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
  // The learner's process starts beside the reference process: it needs no plan to run the cases.
  let attempt = await runLearner(bundle, { type: "run", only: job.only, skip: [], hiddenSalt }, opts, sink, probeWaiters);
  learners.push(attempt.child);
  const planned = await reference.plan;
  if ("fatal" in planned) return { backend: "", results: [], fatal: planned.fatal, printed: "" };
  const plan = new Map(planned.cases.map((p) => [caseKey(p.exercise, p.case), p]));
  const outputs = new Map<string, CaseOutput>();
  /** Verdicts this process decided without an output: timeouts, crashes, tampering, files that did not load. */
  const decided = new Map<string, CaseResult>();
  let accepted = 0;
  const accept = () => {
    for (; accepted < received.length; accepted++) {
      const got = received[accepted];
      const key = got.key;
      const p = plan.get(key);
      if (!p || unrunnable.has(key)) continue; // not a case the learner's process may answer: ignored
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
  // Cases that cannot run at all: the file is missing, or it did not bundle.
  for (const [key, p] of plan) {
    const full = join(job.implDir, p.file);
    const shown = relative(ROOT, full);
    if (!existsSync(full)) decided.set(key, { ...p, status: "error", message: `${shown} is missing: restore it with \`npm run reset ${job.lesson}\` or \`git checkout -- ${shown}\``, ms: 0 });
    else if (bundle.loadErrors.has(p.file)) decided.set(key, { ...p, status: "error", message: bundle.loadErrors.get(p.file)!, loadError: true, ms: 0 });
  }
  const unrunnable = new Set(decided.keys());
  for (;;) {
    accept();
    const remaining = [...plan.keys()].filter((k) => !outputs.has(k) && !decided.has(k));
    if (attempt.finished || remaining.length === 0) break;
    if (!attempt.loaded) {
      // Stopped before the learner's module finished loading: no case can run.
      const why = attempt.timedOut ? attempt.why! : `your code stopped the grading process while loading (${attempt.why?.replace(/^the grading process /, "") ?? "no reason given"})`;
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
    attempt = await runLearner(bundle, { type: "run", only: job.only, skip, hiddenSalt }, opts, sink, probeWaiters);
    learners.push(attempt.child);
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
  const probing = attempt.finished ? attempt.child : undefined;
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
      if (p.probeUnit && probing?.connected) {
        const mine = new Promise<ProbeOutput[]>((resolve) => {
          probeWaiters.set(caseKey(r.exercise, r.case), resolve);
          probing.send({ type: "probe", exercise: r.exercise, case: r.case } satisfies LearnerRequest);
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
  return { backend: planned.backend, results, printed };
}

/** How long the diagnosis of a lesson's failures (known mistakes, probes) may take in all. */
function diagnosisLimitMs(opts: IsolatedOptions): number {
  return Math.min(Math.max(opts.caseTimeoutMs * 3, 30_000), MAX_TIMER_MS);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), Math.min(ms, MAX_TIMER_MS))))]).finally(() => clearTimeout(timer));
}
