/**
 * What the two training pages (train-page.ts: lab 7's pretraining; grpo-page.ts: GRPO on sort)
 * share: paths of the built site and its JSON, the page's elements, a backend probe in a
 * throwaway worker, the resolver's words said for the site, one run at a time with a Stop that
 * ends a worker that does not answer, and the backend / steps form both pages have.
 */
import type { BackendAvailability, BackendChoice, BrowserBackend } from "./backend-choice.js";

const base = new URL(".", document.baseURI);

/** The absolute URL of `path`, a path of the built site. */
export const siteUrl = (path: string) => new URL(path, base).href;

/** The JSON at `path` of the built site; an HTTP error names the path and status. */
export async function fetchJson<T>(path: string): Promise<T> {
  const r = await fetch(siteUrl(path));
  if (!r.ok) throw new Error(`could not fetch ${path}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

/** The page's element with this id, or null when the page has none (a test page may leave some out). */
export const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

/** Sets the text of the element `id`, when there is one. */
export function show(id: string, text: string): void {
  const e = el(id);
  if (e) e.textContent = text;
}

/** The resolver's words for a terminal ("`npm run grade lesson-9`"), said for this site (its workspace pages grade). */
export const forThePage = (text: string) => text.replace(/`?npm run grade (lesson-\d+)`?/g, "grade $1 in its workspace page");

/** Which backends start in this browser: `workerUrl`'s worker answers `{ type: "probe" }` (backends.ts's probeBackends), then is terminated. */
export async function probeInWorker(workerUrl: string, what: string): Promise<BackendAvailability[]> {
  const worker = new Worker(workerUrl, { type: "module", name: "backend probe" });
  try {
    return await new Promise<BackendAvailability[]>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<{ type: string; backends?: BackendAvailability[] }>) => (e.data.type === "probe" ? resolve(e.data.backends ?? []) : undefined);
      worker.onerror = (e) => reject(new Error(`the ${what} worker failed to start: ${e.message}`));
      worker.postMessage({ type: "probe" });
    });
  } finally {
    worker.terminate();
  }
}

/** What both pages' run reports hold (train-page.ts's TrainReport and grpo-page.ts's GrpoReport add their curves). */
export interface RunReport {
  /** The backend the run got, and why better ones were skipped; undefined when the run never reached it. */
  backend?: BackendChoice;
  /** The "whose functions" table (lib/resolver.ts's describeRun). */
  whose: string[];
  stopped: boolean;
  /** The functions that are neither the learner's passing ones nor published: "finish lesson N first". */
  missing?: { message: string; lessons: string[] };
  /** Why the run could not go on (the worker failed, a backend did not start, a function threw). */
  error?: string;
  /** Points of the main curve drawn on the page. */
  drawnPoints: number;
}

/** The messages both workers send alike (train-protocol.ts's `missing` and `fatal`). */
type EndMessage = { type: "missing"; message: string; lessons: string[] } | { type: "fatal"; message: string };

let current: { worker: Worker; finish: () => void } | undefined;

/**
 * Runs `job` in a new worker of `workerUrl` as the page's one run: clears the page's run elements
 * and `charts`, posts `job`, gives each message to `handle` (which calls `done` on the last one),
 * and itself ends the run on `missing` (the lessons to finish first, said for this site), `fatal`
 * or a worker error. Resolves with `report` once the run ends; `redraw` draws it a last time.
 */
export function runInWorker<R extends RunReport, M extends { type: string }>(
  w: { url: string; name: string; what: string; charts: readonly string[] },
  job: unknown,
  report: R,
  redraw: (report: R) => void,
  handle: (msg: M, done: () => void) => void,
): Promise<R> {
  if (current) return Promise.reject(new Error("a run is in progress: stop it first"));
  for (const id of ["missing", "whose", "samples", "rate"]) show(id, "");
  for (const id of w.charts) el<HTMLDivElement>(id)?.replaceChildren();
  show("status", "starting the worker …");
  const worker = new Worker(w.url, { type: "module", name: w.name });
  return new Promise<R>((resolve) => {
    const finish = () => {
      worker.terminate();
      current = undefined;
      setRunning(false);
      redraw(report);
      resolve(report);
    };
    current = { worker, finish };
    setRunning(true);
    worker.onerror = (e) => {
      report.error = `the ${w.what} worker failed: ${e.message}`;
      show("status", report.error);
      finish();
    };
    worker.onmessage = (e: MessageEvent<M | EndMessage>) => {
      const msg = e.data;
      if (msg.type === "missing") {
        const m = msg as Extract<EndMessage, { type: "missing" }>;
        report.missing = { message: m.message, lessons: m.lessons };
        show("missing", forThePage(m.message));
        finish();
      } else if (msg.type === "fatal") {
        report.error = (msg as EndMessage).message;
        show("status", report.error);
        finish();
      } else handle(msg as M, finish);
    };
    worker.postMessage(job);
  });
}

/** Throws when a run is in progress (a page runs one at a time). */
export function assertNoRun(): void {
  if (current) throw new Error("a run is in progress: stop it first");
}

/** Asks the run to stop after the step in flight; a worker that has not finished within `graceSeconds` (a learner function that never returns) is terminated. */
export function stopRun(graceSeconds: number): void {
  const run = current;
  if (!run) return;
  run.worker.postMessage({ type: "stop" });
  setTimeout(() => {
    if (current === run) {
      show("status", `the worker did not stop within ${graceSeconds} s: ended`);
      run.finish();
    }
  }, graceSeconds * 1000);
}

function setRunning(running: boolean): void {
  const start = el<HTMLButtonElement>("start");
  const stopButton = el<HTMLButtonElement>("stop");
  if (start) start.disabled = running;
  if (stopButton) stopButton.disabled = !running;
}

/**
 * The form on train.html and grpo.html: a backend select filled from `backends()` (those that do
 * not start are shown disabled), a steps box, Start and Stop; `describe` says on the page what
 * each available backend can do for this run.
 */
export async function setUpRunForm(
  backends: () => Promise<BackendAvailability[]>,
  start: (backend: BrowserBackend | "best", steps: number | undefined) => void,
  stop: () => void,
  describe: (a: BackendAvailability) => string,
): Promise<void> {
  const select = el<HTMLSelectElement>("backend");
  const startButton = el<HTMLButtonElement>("start");
  const stopButton = el<HTMLButtonElement>("stop");
  const steps = el<HTMLInputElement>("steps");
  if (!select || !startButton || !stopButton || !steps) return;
  stopButton.onclick = stop;
  startButton.onclick = () => {
    const n = Number(steps.value);
    start(select.value as BrowserBackend | "best", Number.isInteger(n) && n > 0 ? n : undefined);
  };
  const available = await backends();
  select.replaceChildren(new Option("best available", "best"), ...available.map((a) => Object.assign(new Option(a.why ? `${a.backend} (not here)` : a.backend, a.backend), { disabled: a.why !== undefined })));
  show("backends", available.map((a) => `${a.backend}: ${a.why ?? describe(a)}`).join("\n"));
}
