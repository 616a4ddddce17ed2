/**
 * The judge of grading in a browser: grader/engine/judge-loop.ts (the Node grader's own judge) with
 * a Web Worker as the learner's transport and the lesson's frozen expectations as the reference.
 * Each learner is a fresh worker given the learner's compiled files; a worker whose case runs past
 * the limit is terminated (that case "timeout", the function's other cases "not run", a fresh
 * worker for the rest); an uncaught error in the worker stops it, as an uncaught exception stops
 * Node's learner process.
 */
import { frozenReference, judgeLearner, type StartLearner } from "../../grader/engine/judge-loop.js";
import type { FrozenLesson } from "../../grader/engine/frozen.js";
import type { CaseResult } from "../../grader/engine/types.js";
import type { BrowserBackend } from "./backends.js";
import type { CompiledFile, WorkerStart } from "./protocol.js";

export interface BrowserJob {
  lesson: string;
  /** The learner's files by name, as given (a name absent here is a missing file). */
  files: Record<string, string>;
  compiled: CompiledFile[];
  /** The learner's compiled files of the lessons the worker's resolver lends (WorkerStart's `lent`). */
  lent: Record<string, CompiledFile[]>;
  frozen: FrozenLesson;
  workerUrl: string;
  casesUrl: string;
  dataUrl: string;
  only?: string[];
  /** The worker's TensorFlow.js backend (default cpu, as the Node grader's learner process). */
  backend?: BrowserBackend;
}

export interface BrowserGradeOptions {
  /** Longest a single case may run (the Node grader's default: 10 s). */
  caseTimeoutMs: number;
  /** Longest start-up may take (default: the Node grader's, max(case limit, 30 s)). */
  loadTimeoutMs?: number;
}

export interface BrowserRun {
  /** The backend the learner's code ran on. */
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

/** A fresh Web Worker per learner, started with the job's compiled files. */
function learnerWorker(job: BrowserJob): StartLearner {
  return (events) => {
    const worker = new Worker(job.workerUrl, { type: "module", name: `grading ${job.lesson}` });
    let alive = true;
    const stop = (why: string) => {
      if (!alive) return;
      alive = false;
      worker.terminate();
      events.exit(why);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      stop(`the grading worker stopped (${e.message || "an uncaught error"}) during this case: does the code throw from a timer or a promise it does not wait for?`);
    };
    worker.onmessage = (e: MessageEvent<unknown>) => {
      const raw = e.data as { type?: unknown; message?: unknown } | null;
      if (raw && raw.type === "fatal" && typeof raw.message === "string") events.fatal(raw.message);
      else events.message(e.data);
    };
    const start: WorkerStart = { type: "start", lesson: job.lesson, casesUrl: job.casesUrl, dataUrl: job.dataUrl, implDir: implDirOf(job.lesson), files: job.compiled, lent: job.lent, backend: job.backend ?? "cpu" };
    worker.postMessage(start);
    return {
      send: (request) => alive && worker.postMessage(request),
      kill: () => stop("the grading worker was stopped"),
      connected: () => alive,
    };
  };
}

/** Grades a lesson in the page against its frozen expectations; the report's cases in plan order. */
export async function gradeInBrowser(job: BrowserJob, opts: BrowserGradeOptions): Promise<BrowserRun> {
  const compileErrors = new Map(job.compiled.flatMap((f) => ("error" in f ? [[f.file, f.error] as const] : [])));
  const run = await judgeLearner(
    {
      reference: frozenReference(job.frozen, job.only),
      start: learnerWorker(job),
      only: job.only,
      hints: true,
      lesson: job.lesson,
      missingFile: (file) => (job.files[file] === undefined ? `exercises/${job.lesson}/${file}` : undefined),
      loadErrors: compileErrors,
    },
    opts,
  );
  return { backend: run.learnerBackend ?? run.backend, results: run.results, ...(run.fatal ? { fatal: run.fatal } : {}), printed: run.printed };
}
