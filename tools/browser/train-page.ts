/**
 * The training page's script (train.html): lab 7's tiny pretraining in a Web Worker
 * (train-worker.ts) on the backend chosen (the best one here by default: webgpu → webgl → wasm →
 * cpu), with a live loss curve (lib/svg.ts's lineChart, inline, redrawn every few steps), steps/s,
 * and a Stop button. The lesson functions are the learner's where their lesson passes in this
 * browser (store.ts's passingLessons: the workspace's IndexedDB), compiled here by esbuild-wasm as
 * grading compiles them; else the reference where the build published it; else the page says
 * "finish lesson N first".
 *
 * Hook for tests and scripts (`window.courseTraining`):
 *   backends()              → which backends start here, and why the others do not
 *   train({ backend, settings, learner }) → the run's report (TrainReport); the page shows it too
 *   stop()                  → ends the run after the step in flight
 */
import { lineChart } from "../../lib/svg.js";
import { chooseBest, type BackendAvailability, type BackendChoice, type BrowserBackend } from "./backend-choice.js";
import { compileLearnerFiles, startCompiler, type LibTable } from "./compile.js";
import { implDirOf } from "./judge-run.js";
import type { BrowserManifest } from "./manifest.js";
import { passingLessons } from "./store.js";
import type { PageToTrainWorker, TrainLesson, TrainManifest, TrainSettings, TrainStepKind, TrainWorkerToPage } from "./train-protocol.js";

export interface TrainOptions {
  /** A backend, or "best" (default): the first of webgpu → webgl → wasm → cpu that starts. */
  backend?: BrowserBackend | "best";
  /** Lab 7's settings to change (default the lab's; steps default 250, or 4 on cpu). */
  settings?: TrainSettings;
  /** The learner's passing lessons (lesson → file → text); default those IndexedDB records (store.ts). */
  learner?: Record<string, Record<string, string>>;
  /** A held-out loss every this many steps (default 25, as the lab). */
  heldOutEvery?: number;
  /** Redraw the curve every this many steps (default 5). */
  chartEvery?: number;
}

/** What a run did, as the page shows it. */
export interface TrainReport {
  /** The backend trained on, and why better ones were skipped; undefined when the run never reached it. */
  backend?: BackendChoice;
  /** How AdamW ran (train-protocol.ts). */
  step?: TrainStepKind;
  /** The "whose functions" table (lib/resolver.ts's describeRun). */
  whose: string[];
  losses: Array<[number, number]>;
  heldOut: Array<[number, number]>;
  /** Steps a second over the whole run (as the lab prints), and after the first steps (warm-up left out). */
  stepsPerSecond?: number;
  steadyStepsPerSecond?: number;
  seconds?: number;
  stopped: boolean;
  samples: Array<{ prompt: string; text: string }>;
  /** Why there are no samples, when the backend cannot read synchronously. */
  noSamples?: string;
  /** The functions that are neither the learner's passing ones nor published: "finish lesson N first". */
  missing?: { message: string; lessons: string[] };
  /** Why the run could not go on (the worker failed, a backend did not start, a function threw). */
  error?: string;
  /** Points of the training-loss curve drawn on the page. */
  drawnPoints: number;
}

const base = new URL(".", document.baseURI);
const url = (p: string) => new URL(p, base).href;

async function json<T>(p: string): Promise<T> {
  const r = await fetch(url(p));
  if (!r.ok) throw new Error(`could not fetch ${p}: HTTP ${r.status}`);
  return (await r.json()) as T;
}

let manifests: Promise<[BrowserManifest, TrainManifest]> | undefined;
const getManifests = () => (manifests ??= Promise.all([json<BrowserManifest>("manifest.json"), json<TrainManifest>("train.json")]));
let lib: Promise<LibTable> | undefined;

const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;
const show = (id: string, text: string) => {
  const e = el(id);
  if (e) e.textContent = text;
};

/** Each lesson the run needs: the learner's passing files compiled here (or why not), and the published reference. */
async function runLessons(m: BrowserManifest, t: TrainManifest, learner: Record<string, Record<string, string>>): Promise<Record<string, TrainLesson>> {
  const out: Record<string, TrainLesson> = {};
  for (const lesson of new Set(Object.values(t.functions))) {
    const mine = learner[lesson];
    let compiled: TrainLesson["learner"] = "not passed in this browser yet";
    if (mine) {
      await startCompiler(url(m.wasm));
      lib ??= json<LibTable>(m.lib);
      compiled = await compileLearnerFiles(lesson, implDirOf(lesson), mine, await lib);
    }
    const reference = t.references[lesson] ? await json<TrainLesson["reference"]>(t.references[lesson]) : undefined;
    out[lesson] = { learner: compiled, reference };
  }
  return out;
}

let current: { worker: Worker; finish: () => void } | undefined;

/** Which backends start in this browser, each tried in a throwaway worker, and why the others do not. */
export async function backends(): Promise<BackendAvailability[]> {
  const [, t] = await getManifests();
  const worker = new Worker(url(t.worker), { type: "module", name: "backend probe" });
  try {
    return await new Promise<BackendAvailability[]>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<TrainWorkerToPage>) => (e.data.type === "probe" ? resolve(e.data.backends) : undefined);
      worker.onerror = (e) => reject(new Error(`the training worker failed to start: ${e.message}`));
      worker.postMessage({ type: "probe" } satisfies PageToTrainWorker);
    });
  } finally {
    worker.terminate();
  }
}

function drawChart(report: TrainReport): void {
  const box = el<HTMLDivElement>("chart");
  if (!box || report.losses.length === 0) return;
  box.innerHTML = lineChart({
    title: "Pretraining loss (tiny corpus, course tokenizer)",
    xLabel: "step",
    yLabel: "cross-entropy",
    width: 720,
    height: 360,
    series: [
      { name: "training loss (its batch)", points: report.losses },
      { name: "held-out loss", points: report.heldOut, dashed: true, markers: true },
    ],
  });
  report.drawnPoints = report.losses.length;
  box.dataset.points = String(report.drawnPoints);
}

/** The resolver's words for a terminal ("`npm run grade lesson-9`"), said for this site (its workspace pages grade). */
const forThePage = (text: string) => text.replace(/`?npm run grade (lesson-\d+)`?/g, "grade $1 in its workspace page");

function describeBackend(c: BackendChoice, step: TrainStepKind): string {
  const skipped = c.skipped.map((s) => `${s.backend} skipped: ${s.why}`);
  const how = step === "on-device" ? "AdamW runs on the GPU, and only the loss is read back" : "AdamW runs on typed arrays";
  return [`Training on TensorFlow.js's ${c.backend} backend (${how}).`, ...skipped].join("\n");
}

/** Runs lab 7's tiny pretraining in a worker, showing it on the page; resolves with the run's report when it ends. */
export async function train(opts: TrainOptions = {}): Promise<TrainReport> {
  if (current) throw new Error("a run is in progress: stop it first");
  const [m, t] = await getManifests();
  const learner = opts.learner ?? (await passingLessons().catch(() => ({})));
  const lessons = await runLessons(m, t, learner);
  const asked = opts.backend ?? "best";
  // "best" is picked from a probe in a throwaway worker (backends.ts: a failed WebGPU can spoil its worker's WebGL).
  const choice = asked === "best" ? chooseBest(await backends()) : { backend: asked, skipped: [] };
  const report: TrainReport = { whose: [], losses: [], heldOut: [], stopped: false, samples: [], drawnPoints: 0 };
  const chartEvery = opts.chartEvery ?? 5;
  for (const id of ["missing", "whose", "samples", "rate"]) show(id, "");
  el<HTMLDivElement>("chart")?.replaceChildren();
  show("status", "starting the worker …");
  const worker = new Worker(url(t.worker), { type: "module", name: "training" });
  return new Promise<TrainReport>((resolve) => {
    const finish = () => {
      worker.terminate();
      current = undefined;
      drawChart(report);
      setRunning(false);
      resolve(report);
    };
    current = { worker, finish };
    setRunning(true);
    worker.onerror = (e) => {
      report.error = `the training worker failed: ${e.message}`;
      show("status", report.error);
      finish();
    };
    worker.onmessage = (e: MessageEvent<TrainWorkerToPage>) => {
      const msg = e.data;
      if (msg.type === "backend") {
        report.backend = msg.choice;
        report.step = msg.step;
        show("status", describeBackend(msg.choice, msg.step));
      } else if (msg.type === "plan") {
        report.whose = msg.whose;
        show("whose", [`Model: ${msg.config}: ${(msg.parameters / 1e6).toFixed(3)}M parameters; ${msg.trainSentences} sentences to train on, ${msg.heldOutSentences} held out.`, "", ...msg.whose.map(forThePage)].join("\n"));
      } else if (msg.type === "step") {
        report.losses.push([msg.step, msg.loss]);
        report.stepsPerSecond = msg.stepsPerSecond;
        show("rate", `step ${msg.step}/${msg.steps}   loss ${msg.loss.toFixed(4)}   lr ${msg.lr.toExponential(2)}   ${msg.stepsPerSecond.toFixed(2)} steps/s`);
        if (msg.step % chartEvery === 0 || msg.step === 1) drawChart(report);
      } else if (msg.type === "held-out") {
        report.heldOut.push([msg.step, msg.loss]);
      } else if (msg.type === "done") {
        Object.assign(report, { seconds: msg.seconds, steadyStepsPerSecond: msg.steadyStepsPerSecond, stopped: msg.stopped, samples: msg.samples, noSamples: msg.noSamples });
        show("samples", msg.noSamples ?? msg.samples.map((s) => `${JSON.stringify(s.prompt)} → ${JSON.stringify(s.text)}`).join("\n"));
        show("rate", `${msg.stopped ? "stopped after" : "trained"} ${msg.steps} steps in ${msg.seconds.toFixed(1)} s (${(msg.steps / msg.seconds).toFixed(2)} steps/s${msg.steadyStepsPerSecond ? `, ${msg.steadyStepsPerSecond.toFixed(2)} after the first steps` : ""})`);
        finish();
      } else if (msg.type === "missing") {
        report.missing = { message: msg.message, lessons: msg.lessons };
        show("missing", forThePage(msg.message));
        finish();
      } else if (msg.type === "fatal") {
        report.error = msg.message;
        show("status", msg.message);
        finish();
      }
    };
    worker.postMessage({ type: "train", choice, settings: opts.settings ?? {}, dataUrl: url(t.data), lessons, heldOutEvery: opts.heldOutEvery ?? 25 } satisfies PageToTrainWorker);
  });
}

/** Ends the run after the step in flight (the worker is terminated when it does not answer within 5 s: a learner function that never returns). */
export function stop(): void {
  const run = current;
  if (!run) return;
  run.worker.postMessage({ type: "stop" } satisfies PageToTrainWorker);
  setTimeout(() => {
    if (current === run) {
      show("status", "the worker did not stop within 5 s: ended");
      run.finish();
    }
  }, 5_000);
}

function setRunning(running: boolean): void {
  const start = el<HTMLButtonElement>("start");
  const stopButton = el<HTMLButtonElement>("stop");
  if (start) start.disabled = running;
  if (stopButton) stopButton.disabled = !running;
}

declare global {
  interface Window {
    courseTraining: { backends: typeof backends; train: typeof train; stop: typeof stop; ready: boolean };
  }
}

window.courseTraining = { backends, train, stop, ready: true };

// ---------------------------------------------------------------- the form on train.html

async function setUpForm(): Promise<void> {
  const select = el<HTMLSelectElement>("backend");
  const start = el<HTMLButtonElement>("start");
  const stopButton = el<HTMLButtonElement>("stop");
  const steps = el<HTMLInputElement>("steps");
  if (!select || !start || !stopButton || !steps) return;
  stopButton.onclick = stop;
  start.onclick = () => {
    const n = Number(steps.value);
    void train({ backend: select.value as BrowserBackend | "best", settings: Number.isInteger(n) && n > 0 ? { steps: n } : {} });
  };
  const available = await backends();
  select.replaceChildren(new Option("best available", "best"), ...available.map((a) => Object.assign(new Option(a.why ? `${a.backend} (not here)` : a.backend, a.backend), { disabled: a.why !== undefined })));
  show("backends", available.map((a) => `${a.backend}: ${a.why ?? (a.syncRead ? `trains here (reads back asynchronously only: ${a.syncRead})` : "starts here")}`).join("\n"));
}

void setUpForm();
