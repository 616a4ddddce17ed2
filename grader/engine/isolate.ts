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
 *   outputs (judge.ts) and passes a lesson only when every planned case passed: judge-loop.ts, the
 *   judge the grading page shares (tools/browser/judge-run.ts), with this module's processes as
 *   its transport.
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
import { matchMistake } from "./judge.js";
import { frozenReference, judgeLearner, MAX_TIMER_MS, type LessonPlan, type Reference, type StartLearner } from "./judge-loop.js";
import type { CaseOutput } from "./outputs.js";
import { ROOT, paths } from "./paths.js";
import { readFrozen } from "./frozen.js";
import { learnerRunLessons } from "../../lib/preloaded.js";
import { caseKey, type GradeJob, type ReferenceMessage, type ReferenceRequest } from "./protocol.js";
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
export { MAX_TIMER_MS, type LessonPlan };

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

/**
 * The reference process when solutions/<lesson> is here, else the lesson's frozen expectations.
 * Frozen expectations win too in an edition that withholds lib/'s code of an unpublished lesson
 * (lib/preloaded.ts: the tokenizer without lesson 4): there the reference process would run the
 * learner's lesson-4 functions, while the frozen values were made with the course's own.
 */
function referenceFor(job: GradeJob, limitMs: number): Reference {
  const frozen = readFrozen(job.lesson);
  if (existsSync(join(paths.solutions, job.lesson)) && !(frozen && learnerRunLessons(paths.solutions).length > 0)) return startReference(job, limitMs);
  if (frozen) return frozenReference(frozen, job.only);
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
      const planned = await plan;
      const entry = "cases" in planned ? planned.cases.find((c) => c.exercise === exercise && c.case === name) : undefined;
      const want = (await done).get(caseKey(exercise, name));
      if (!entry || !want) return undefined;
      const m = await request({ type: "mutants", exercise, case: name });
      return m?.type === "mutants" ? matchMistake(got, m.outputs, { output: want, tolerance: entry.tolerance }) : undefined;
    },
    probe: async (exercise, name) => {
      const m = await request({ type: "probe", exercise, case: name });
      return m?.type === "probe" ? m.outputs : undefined;
    },
    stop: () => killGroup(child),
  };
}

// ---------------------------------------------------------------- the learner's process

/** The learner's sandboxed process as judge-loop.ts drives it: its messages, its printing, its exit. */
function learnerProcess(bundle: LearnerBundle): StartLearner {
  return (events) => {
    // No loader, no writes, no processes, no workers, reads of its bundle and the runtime only.
    // Each folder as named and as its real path: module resolution checks the path it walks, loading
    // the resolved one, so a symlinked node_modules (a student edition's) needs both.
    const folders = [bundle.dir, join(ROOT, "node_modules")].flatMap((d) => [...new Set([d, realpathSync(d)])]);
    const flags = sandboxNodeFlags({ folders, files: [] });
    const child = spawn(bundle.entry, ["--enable-source-maps", ...flags], "pipe", childLauncher(true));
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding("utf8");
      stream?.on("data", (d: string) => events.printed(d));
    }
    child.on("message", (raw: unknown) => events.message(raw));
    child.on("exit", (code, signal) => events.exit(`the grading process exited (${signal ?? `code ${code}`}) during this case: does the code call process.exit, or run out of memory?`));
    return {
      send: (request) => void child.send(request),
      kill: () => killGroup(child),
      connected: () => child.connected,
    };
  };
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
  try {
    await opts.begin;
    bundle = await bundleLearner(job.lesson, job.implDir, lessonFiles(job.implDir));
    const missingFile = (file: string) => {
      const full = join(job.implDir, file);
      return existsSync(full) ? undefined : relative(ROOT, full);
    };
    // The learner's process always runs on the plan's backend (cpu): only the page's worker may differ.
    const { learnerBackend: _sameAsPlanned, ...run } = await judgeLearner(
      { reference, start: learnerProcess(bundle), only: job.only, hints: job.hints, hiddenSalt: job.hiddenSalt, missingFile, lesson: job.lesson, loadErrors: bundle.loadErrors },
      opts,
    );
    const note = osSandboxNote();
    return { ...run, learnerInputs: bundle.learnerInputs, ...(note ? { sandboxNote: note } : {}) };
  } finally {
    reference.stop();
    bundle?.dispose();
  }
}
