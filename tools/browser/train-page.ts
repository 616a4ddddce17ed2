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
import { runLessons } from "./lesson-files.js";
import type { BrowserManifest } from "./manifest.js";
import { assertNoRun, el, fetchJson, forThePage, probeInWorker, runInWorker, setUpRunForm, show, siteUrl, stopRun, type RunReport } from "./run-page.js";
import { passingLessons } from "./store.js";
import type { PageToTrainWorker, TrainManifest, TrainSettings, TrainStepKind, TrainWorkerToPage } from "./train-protocol.js";

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
export interface TrainReport extends RunReport {
  /** How AdamW ran (train-protocol.ts). */
  step?: TrainStepKind;
  losses: Array<[number, number]>;
  heldOut: Array<[number, number]>;
  /** Steps a second over the whole run (as the lab prints), and after the first steps (warm-up left out). */
  stepsPerSecond?: number;
  steadyStepsPerSecond?: number;
  seconds?: number;
  samples: Array<{ prompt: string; text: string }>;
  /** Why there are no samples, when the backend cannot read synchronously. */
  noSamples?: string;
}

let manifests: Promise<[BrowserManifest, TrainManifest]> | undefined;
const getManifests = () => (manifests ??= Promise.all([fetchJson<BrowserManifest>("manifest.json"), fetchJson<TrainManifest>("train.json")]));

/** Which backends start in this browser, each tried in a throwaway worker, and why the others do not. */
export async function backends(): Promise<BackendAvailability[]> {
  const [, t] = await getManifests();
  return probeInWorker(siteUrl(t.worker), "training");
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

function describeBackend(c: BackendChoice, step: TrainStepKind): string {
  const skipped = c.skipped.map((s) => `${s.backend} skipped: ${s.why}`);
  const how = step === "on-device" ? "AdamW runs on the GPU, and only the loss is read back" : "AdamW runs on typed arrays";
  return [`Training on TensorFlow.js's ${c.backend} backend (${how}).`, ...skipped].join("\n");
}

/** Runs lab 7's tiny pretraining in a worker, showing it on the page; resolves with the run's report when it ends. */
export async function train(opts: TrainOptions = {}): Promise<TrainReport> {
  assertNoRun();
  const [m, t] = await getManifests();
  const learner = opts.learner ?? (await passingLessons().catch(() => ({})));
  const lessons = await runLessons(m, t.functions, t.references, learner, fetchJson, siteUrl);
  const asked = opts.backend ?? "best";
  // "best" is picked from a probe in a throwaway worker (backends.ts: a failed WebGPU can spoil its worker's WebGL).
  const choice = asked === "best" ? chooseBest(await backends()) : { backend: asked, skipped: [] };
  const report: TrainReport = { whose: [], losses: [], heldOut: [], stopped: false, samples: [], drawnPoints: 0 };
  const chartEvery = opts.chartEvery ?? 5;
  const job: PageToTrainWorker = { type: "train", choice, settings: opts.settings ?? {}, dataUrl: siteUrl(t.data), lessons, heldOutEvery: opts.heldOutEvery ?? 25 };
  const where = { url: siteUrl(t.worker), name: "training", what: "training", charts: ["chart"] };
  return runInWorker<TrainReport, TrainWorkerToPage>(where, job, report, drawChart, (msg, done) => {
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
      done();
    }
  });
}

/** Ends the run after the step in flight (the worker is terminated when it does not answer within 5 s: a learner function that never returns). */
export function stop(): void {
  stopRun(5);
}

declare global {
  interface Window {
    courseTraining: { backends: typeof backends; train: typeof train; stop: typeof stop; ready: boolean };
  }
}

window.courseTraining = { backends, train, stop, ready: true };

// ---------------------------------------------------------------- the form on train.html

void setUpRunForm(
  backends,
  (backend, steps) => void train({ backend, settings: steps ? { steps } : {} }),
  stop,
  (a) => (a.syncRead ? `trains here (reads back asynchronously only: ${a.syncRead})` : "starts here"),
);
