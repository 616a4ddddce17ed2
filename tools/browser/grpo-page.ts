/**
 * The GRPO page's script (grpo.html): lesson 24's GRPO on the sort task from the shipped start
 * model, in a Web Worker (grpo-worker.ts) on the backend chosen (the best one here by default,
 * from a probe in a throwaway worker: backends.ts), with a live reward curve and a loss/KL curve
 * (lib/svg.ts's lineChart, inline, redrawn every few steps), held-out exact match, steps/s, and a
 * Stop button. The lesson functions are the learner's where their lesson passes in this browser
 * (store.ts's passingLessons: the workspace's IndexedDB), compiled here as grading compiles them
 * (lesson-files.ts); else the reference where the build published it; else the page says
 * "finish lesson N first".
 *
 * Hook for tests and scripts (`window.courseGrpo`):
 *   backends()                            → which backends start here, and why the others do not
 *   train({ backend, settings, learner }) → the run's report (GrpoReport); the page shows it too
 *   stop()                                → ends the run after the step in flight
 */
import { lineChart } from "../../lib/svg.js";
import { chooseBest, type BackendAvailability, type BrowserBackend } from "./backend-choice.js";
import type { GrpoManifest, GrpoSettings, GrpoWorkerToPage, PageToGrpoWorker } from "./grpo-protocol.js";
import { runLessons } from "./lesson-files.js";
import type { BrowserManifest } from "./manifest.js";
import { assertNoRun, el, fetchJson, forThePage, probeInWorker, runInWorker, setUpRunForm, show, siteUrl, stopRun, type RunReport } from "./run-page.js";
import { passingLessons } from "./store.js";

export interface GrpoOptions {
  /** A backend, or "best" (default): the first of webgpu → webgl → wasm → cpu that starts. */
  backend?: BrowserBackend | "best";
  /** RL settings to change (default grpo-plan.ts's page defaults: 30 steps, 4 prompts × 8 samples). */
  settings?: GrpoSettings;
  /** The learner's passing lessons (lesson → file → text); default those IndexedDB records (store.ts). */
  learner?: Record<string, Record<string, string>>;
  /** Redraw the curves every this many steps (default 2). */
  chartEvery?: number;
}

/** What a run did, as the page shows it. */
export interface GrpoReport extends RunReport {
  /** [step, value] a step: the mean reward of its samples, its loss, its KL to the reference. */
  rewards: Array<[number, number]>;
  losses: Array<[number, number]>;
  kl: Array<[number, number]>;
  /** [step, held-out exact match], greedy; step 0 is the start model. */
  heldOut: Array<[number, number]>;
  /** Steps a second over the steps' own time (held-out evaluations left out), and after the first steps. */
  stepsPerSecond?: number;
  steadyStepsPerSecond?: number;
  /** Wall time of the steps and the evaluations between them; the steps' own time. */
  seconds?: number;
  stepSeconds?: number;
  /** Why the run stopped early (a NaN loss, a KL above the limit). */
  diverged?: string;
  /** Held-out answers at the end. */
  samples: Array<{ question: string; answer: string; response: string }>;
}

let manifests: Promise<[BrowserManifest, GrpoManifest]> | undefined;
const getManifests = () => (manifests ??= Promise.all([fetchJson<BrowserManifest>("manifest.json"), fetchJson<GrpoManifest>("grpo.json")]));

/** Which backends start in this browser, each tried in a throwaway worker, and why the others do not. */
export async function backends(): Promise<BackendAvailability[]> {
  const [, g] = await getManifests();
  return probeInWorker(siteUrl(g.worker), "GRPO");
}

function drawCharts(report: GrpoReport): void {
  const rewardBox = el<HTMLDivElement>("chart");
  const lossBox = el<HTMLDivElement>("loss-chart");
  if (!rewardBox || report.rewards.length === 0) return;
  rewardBox.innerHTML = lineChart({
    title: "GRPO on sort: reward and held-out exact match",
    xLabel: "step",
    yLabel: "reward / accuracy",
    width: 720,
    height: 320,
    series: [
      { name: "training reward", points: report.rewards },
      { name: "held-out exact match", points: report.heldOut, dashed: true, markers: true },
    ],
  });
  if (lossBox)
    lossBox.innerHTML = lineChart({
      title: "GRPO loss and KL to the start model",
      xLabel: "step",
      yLabel: "loss / nats",
      width: 720,
      height: 280,
      series: [
        { name: "loss", points: report.losses },
        { name: "KL to the start", points: report.kl, dashed: true },
      ],
    });
  report.drawnPoints = report.rewards.length;
  rewardBox.dataset.points = String(report.drawnPoints);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Runs GRPO on the sort task in a worker, showing it on the page; resolves with the run's report when it ends. */
export async function train(opts: GrpoOptions = {}): Promise<GrpoReport> {
  assertNoRun();
  const [m, g] = await getManifests();
  const learner = opts.learner ?? (await passingLessons().catch(() => ({})));
  const lessons = await runLessons(m, g.functions, g.references, learner, fetchJson, siteUrl);
  const asked = opts.backend ?? "best";
  // GRPO's rollouts read back synchronously: a backend that reads asynchronously only counts as not here.
  const syncOnly = (found: BackendAvailability[]) => found.map((f) => (f.syncRead ? { backend: f.backend, why: `it reads back asynchronously only (${f.syncRead}), and GRPO's rollouts read synchronously` } : f));
  const choice = asked === "best" ? chooseBest(syncOnly(await backends())) : { backend: asked, skipped: [] };
  const report: GrpoReport = { whose: [], rewards: [], losses: [], kl: [], heldOut: [], stopped: false, samples: [], drawnPoints: 0 };
  const chartEvery = opts.chartEvery ?? 2;
  const job: PageToGrpoWorker = { type: "grpo", choice, settings: opts.settings ?? {}, dataUrl: siteUrl(g.data), modelUrl: siteUrl(g.model), lessons };
  const where = { url: siteUrl(g.worker), name: "GRPO", what: "GRPO", charts: ["chart", "loss-chart"] };
  return runInWorker<GrpoReport, GrpoWorkerToPage>(where, job, report, drawCharts, (msg, done) => {
    if (msg.type === "backend") {
      report.backend = msg.choice;
      show("status", [`GRPO on TensorFlow.js's ${msg.choice.backend} backend.`, ...msg.choice.skipped.map((s) => `${s.backend} skipped: ${s.why}`)].join("\n"));
    } else if (msg.type === "plan") {
      report.whose = msg.whose;
      show("whose", [`Start model: ${msg.config}: ${(msg.parameters / 1e6).toFixed(3)}M parameters. Run: ${msg.run}; ${msg.trainPrompts} training prompts, ${msg.heldOutPrompts} held out.`, "", ...msg.whose.map(forThePage)].join("\n"));
      show("rate", "measuring the start model on the held-out prompts …");
    } else if (msg.type === "step") {
      report.rewards.push([msg.step, msg.rewardMean]);
      report.losses.push([msg.step, msg.loss]);
      report.kl.push([msg.step, msg.klRef]);
      report.stepsPerSecond = msg.stepsPerSecond;
      show("rate", `step ${msg.step}/${msg.steps}   reward ${msg.rewardMean.toFixed(3)} ± ${msg.rewardStd.toFixed(3)}   loss ${msg.loss.toFixed(4)}   KL ${msg.klRef.toFixed(4)}   lr ${msg.lr.toExponential(2)}   ${msg.stepsPerSecond.toFixed(2)} steps/s`);
      if (msg.step % chartEvery === 0 || msg.step === 1) drawCharts(report);
    } else if (msg.type === "held-out") {
      report.heldOut.push([msg.step, msg.accuracy]);
    } else if (msg.type === "done") {
      Object.assign(report, { seconds: msg.seconds, stepSeconds: msg.stepSeconds, steadyStepsPerSecond: msg.steadyStepsPerSecond, stopped: msg.stopped, diverged: msg.diverged, samples: msg.samples });
      show("samples", msg.samples.map((s) => `${JSON.stringify(s.question)} → ${JSON.stringify(s.response)} (expected ${JSON.stringify(s.answer)})`).join("\n"));
      const first = report.heldOut[0]?.[1];
      const lastAcc = report.heldOut.at(-1)?.[1];
      const held = first !== undefined && lastAcc !== undefined ? `; held-out exact match ${pct(first)} → ${pct(lastAcc)}` : "";
      show("rate", `${msg.diverged ?? (msg.stopped ? "stopped after" : "trained")} ${msg.steps} steps in ${msg.seconds.toFixed(1)} s (${(msg.steps / msg.stepSeconds).toFixed(2)} steps/s over the steps${msg.steadyStepsPerSecond ? `, ${msg.steadyStepsPerSecond.toFixed(2)} after the first steps` : ""})${held}`);
      done();
    }
  });
}

/** Ends the run after the step in flight (the worker is terminated when it does not answer within 10 s: a learner function that never returns). */
export function stop(): void {
  stopRun(10);
}

declare global {
  interface Window {
    courseGrpo: { backends: typeof backends; train: typeof train; stop: typeof stop; ready: boolean };
  }
}

window.courseGrpo = { backends, train, stop, ready: true };

// ---------------------------------------------------------------- the form on grpo.html

void setUpRunForm(
  backends,
  (backend, steps) => void train({ backend, settings: steps ? { steps } : {} }),
  stop,
  (a) => (a.syncRead ? `starts, but GRPO cannot run here (its rollouts read back synchronously: ${a.syncRead})` : "starts here"),
);
