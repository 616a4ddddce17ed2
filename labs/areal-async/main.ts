/**
 * Capstone of the AReaL track: asynchronous rollouts on a seeded virtual clock.
 *
 * For several values of max_head_offpolicyness η it simulates rollout workers and a trainer
 * (simulation.ts), gives every token a log-probability under a drifting toy policy (policy.ts), and
 * measures each training step with the course's lesson functions, yours where they pass grading and
 * the reference elsewhere (step-metrics.ts; the run prints which): staleness, the clip fraction of
 * plain vs decoupled PPO, rejection sampling, the proximal approximations and micro-batch balance.
 * Prints two tables that fit a 100-column terminal and writes SVG plots.
 *
 * Run: npm run lab areal-async   (or npm run lab lesson-34 -- async) [-- --use-reference all]
 * `npm run lab areal-async -- dashboard` reads AReaL's logged statistics on these runs (dashboard.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { lineChart, type Series } from "../../lib/svg.js";
import type { Lab, LabContext } from "../lab.js";
import { dashboardLab } from "./dashboard.js";
import { ToyPolicy } from "./policy.js";
import { simulate, type AsyncConfig, type SimulationResult } from "./simulation.js";
import { resolveStepFunctions, stepMetrics, type MetricSettings, type StepMetrics } from "./step-metrics.js";

const OFFPOLICYNESS = [0, 1, 2, 4, 6, 8];

const BASE: Omit<AsyncConfig, "maxHeadOffpolicyness"> = {
  batchSize: 16,
  maxConcurrent: 24,
  trainSteps: 24,
  maxNewTokens: 24,
  minNewTokens: 6,
  tokensPerTick: 2,
  trainTicks: 10,
  seed: 34,
};

const SETTINGS: MetricSettings = { epsClip: 0.2, rejectLower: 0.5, rejectUpper: 2, microBatches: 4 };

const DRIFT = { trend: 0.12, noise: 0.08 };

interface Run {
  eta: number;
  sim: SimulationResult;
  steps: StepMetrics[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

function runOne(eta: number): Run {
  const config: AsyncConfig = { ...BASE, maxHeadOffpolicyness: eta };
  const sim = simulate(config);
  const policy = new ToyPolicy(BASE.seed, BASE.maxNewTokens, BASE.trainSteps + 1, DRIFT);
  return { eta, sim, steps: sim.steps.map((s) => stepMetrics(s, policy, BASE.maxNewTokens, SETTINGS)) };
}

/** One row of the summary table: averages over the run's steps. */
function summary(run: Run) {
  const avg = (f: (m: StepMetrics) => number) => mean(run.steps.map(f));
  return {
    eta: run.eta,
    ticksPerStep: run.sim.totalTicks / run.sim.steps.length,
    trainerBusy: run.sim.trainerBusyTicks / run.sim.totalTicks,
    stalenessAvg: avg((m) => m.stalenessAvg),
    stalenessMax: Math.max(...run.steps.map((m) => m.stalenessMax)),
    mixed: avg((m) => m.mixedVersionShare),
    clipCoupled: avg((m) => m.clipCoupled),
    clipDecoupled: avg((m) => m.clipDecoupled),
    rejected: avg((m) => m.rejected),
    errRollout: avg((m) => m.approxError.rollout),
    errLoglinear: avg((m) => m.approxError.loglinear),
    errLinear: avg((m) => m.approxError.linear),
    lossGap: avg((m) => m.lossGapLoglinear),
    imbalance: avg((m) => m.microBatchImbalance),
  };
}

type Summary = ReturnType<typeof summary>;

type Column = [string, (s: Summary) => string];

/** Time, staleness and what the clip and rejection sampling do (trainer busy: share of ticks training; mixed: answers of 2+ versions). */
const TIME_AND_CLIP: Column[] = [
  ["η", (s) => String(s.eta)],
  ["ticks/step", (s) => s.ticksPerStep.toFixed(1)],
  ["busy", (s) => `${(100 * s.trainerBusy).toFixed(0)}%`],
  ["stale avg", (s) => s.stalenessAvg.toFixed(2)],
  ["stale max", (s) => String(s.stalenessMax)],
  ["mixed", (s) => `${(100 * s.mixed).toFixed(0)}%`],
  ["clip PPO", (s) => s.clipCoupled.toFixed(3)],
  ["clip decoupled", (s) => s.clipDecoupled.toFixed(3)],
  ["rejected", (s) => `${(100 * s.rejected).toFixed(1)}%`],
];

/** The proximal approximations' error (lesson 30) and micro-batch balance (lesson 34). */
const APPROX_AND_BALANCE: Column[] = [
  ["η", (s) => String(s.eta)],
  ["|Δ| rollout", (s) => s.errRollout.toFixed(4)],
  ["|Δ| loglinear", (s) => s.errLoglinear.toFixed(4)],
  ["|Δ| linear", (s) => s.errLinear.toFixed(4)],
  ["|ΔL| loglinear", (s) => s.lossGap.toFixed(5)],
  ["mb max/mean", (s) => s.imbalance.toFixed(3)],
];

function printTable(rows: Summary[], columns: Column[]): void {
  const cells = [columns.map(([h]) => h), ...rows.map((r) => columns.map(([, f]) => f(r)))];
  const widths = columns.map((_, j) => Math.max(...cells.map((row) => row[j].length)));
  for (const [i, row] of cells.entries()) {
    console.log("  " + row.map((c, j) => c.padStart(widths[j])).join("  "));
    if (i === 0) console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  }
}

function writeChart(ctx: LabContext, file: string, title: string, yLabel: string, series: Series[], xLabel = "max_head_offpolicyness η"): void {
  const path = join(ctx.outDir, file);
  writeFileSync(path, lineChart({ title, xLabel, yLabel, series }));
  console.log(`  wrote ${ctx.show(path)}`);
}

function charts(ctx: LabContext, runs: Run[], rows: Summary[]): void {
  const over = (f: (s: Summary) => number): Array<[number, number]> => rows.map((s) => [s.eta, f(s)]);
  writeChart(ctx, "async-throughput.svg", "Virtual time per training step", "ticks per step", [
    { name: "ticks per step", points: over((s) => s.ticksPerStep) },
  ]);
  writeChart(ctx, "async-staleness.svg", "Staleness of the consumed tokens", "v_prox − v_behave", [
    { name: "average", points: over((s) => s.stalenessAvg) },
    { name: "maximum", points: over((s) => s.stalenessMax) },
    { name: "η (the bound)", points: over((s) => s.eta), dashed: true, color: "#999" },
  ]);
  writeChart(ctx, "async-clip-fraction.svg", "Tokens the PPO clip silences, and tokens rejection sampling drops", "share of tokens", [
    { name: "clipped, PPO at π_behave", points: over((s) => s.clipCoupled) },
    { name: "clipped, decoupled (π_prox)", points: over((s) => s.clipDecoupled) },
    { name: "rejected (not clipped)", points: over((s) => s.rejected), dashed: true },
  ]);
  writeChart(ctx, "async-prox-approx.svg", "Error of the proximal approximations", "mean |log π_approx − log π_prox|", [
    { name: "rollout (α = 0)", points: over((s) => s.errRollout) },
    { name: "loglinear", points: over((s) => s.errLoglinear) },
    { name: "linear", points: over((s) => s.errLinear) },
  ]);
  writeChart(
    ctx,
    "async-staleness-per-step.svg",
    "Average staleness, step by step",
    "v_prox − v_behave",
    runs.map((r) => ({ name: `η = ${r.eta}`, points: r.steps.map((m): [number, number] => [m.step, m.stalenessAvg]) })),
    "training step",
  );
}

const capstone: Lab = async (ctx) => {
  if (ctx.args.includes("dashboard")) return dashboardLab(ctx);
  const t0 = performance.now();
  console.log("AReaL track capstone: asynchronous rollouts on a virtual clock\n");
  await resolveStepFunctions(ctx);
  console.log(
    `  B = ${BASE.batchSize} answers per step, ${BASE.maxConcurrent} decoded at once, ${BASE.minNewTokens}-${BASE.maxNewTokens} tokens each at ` +
      `${BASE.tokensPerTick} per tick;\n  a training step takes ${BASE.trainTicks} ticks; ${BASE.trainSteps} steps per run.`,
  );
  console.log(`  Admission: capacity = min(${BASE.maxConcurrent} − running, (η + version + 1)·${BASE.batchSize} − (accepted + running)).\n`);
  const runs = OFFPOLICYNESS.map(runOne);
  const rows = runs.map(summary);
  console.log("  Time, staleness, clipping, rejection (busy: trainer's share of ticks; mixed: answers of 2+ versions)");
  printTable(rows, TIME_AND_CLIP);
  console.log("\n  Proximal approximations (mean |log π_approx − log π_prox|, loss gap) and micro-batch balance");
  printTable(rows, APPROX_AND_BALANCE);
  console.log(`
  Reading the table:
  - η = 0 is synchronous RL: generation waits for training and training for generation, so no
    token is stale. Each extra version of allowed off-policyness lets generation run ahead,
    the trainer idles less, and the time per step falls until training is the bottleneck.
  - Staleness grows with η (averages over all steps, warm-up included). The rule counts samples,
    not the batch each lands in: a long answer overtaken by shorter ones admitted after it is
    consumed one step later, so the maximum can reach η + 1. Weight updates land mid-answer, so
    many answers carry tokens of two or more versions.
  - With the trust region centred on π_behave (plain PPO) the ratio π_θ/π_behave spans all the
    versions in between, and the clip silences more tokens as η grows. The decoupled loss centres
    it on π_prox, one version behind π_θ, so its clip fraction does not depend on η.
  - Rejection sampling (token level, keep π_prox/π_behave in [0.5, 2]) drops more tokens as
    they get staler.
  - "rollout" (π_prox ≈ π_behave) is wrong by the whole behaviour gap; the loglinear and linear
    interpolations of lesson 30 remove most of it, and the residual grows with the version gap.
`);
  charts(ctx, runs, rows);
  console.log(`\n  done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};

export default capstone;
