/**
 * What the two training pages (train-page.ts: lab 7's pretraining; grpo-page.ts: GRPO on sort)
 * share: paths of the built site and its JSON, the page's elements, a backend probe in a
 * throwaway worker, the resolver's words said for the site, one run at a time with a Stop that
 * ends a worker that does not answer, and the backend / steps form both pages have.
 */
import type { BackendAvailability, BrowserBackend } from "./backend-choice.js";

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

let current: { worker: Worker; finish: () => void } | undefined;

/** Throws when a run is in progress (a page runs one at a time). */
export function assertNoRun(): void {
  if (current) throw new Error("a run is in progress: stop it first");
}

/**
 * Makes `worker` the page's run; the returned `finish` terminates it, calls `onFinish` and frees
 * the page for the next run. The Start / Stop buttons follow.
 */
export function beginRun(worker: Worker, onFinish: () => void): () => void {
  const finish = () => {
    worker.terminate();
    current = undefined;
    setRunning(false);
    onFinish();
  };
  current = { worker, finish };
  setRunning(true);
  return finish;
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
