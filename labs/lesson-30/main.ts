/**
 * Lab 30: how good are the proximal approximations? A softmax policy over K tokens is trained by
 * exact policy-gradient steps, giving a real sequence of versions π_0, π_1, …; for a token
 * generated s versions ago we compare log π_prox (the true π_{v_θ−1}) with the loglinear, linear
 * and rollout stand-ins, weighted by how often the behaviour policy emits each token. Then the
 * staleness statistics of a simulated asynchronous batch. Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 * `npm run lab lesson-30 -- temperature` measures a forgotten sampling temperature instead (temperature.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as ProxApprox from "../../exercises/lesson-30/prox-approx.js";
import { labFunctions, type Lab } from "../lab.js";
import { temperatureLab } from "./temperature.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { proxLogpApproximations: "lesson-30", stalenessStats: "lesson-30" };
type Functions = { proxLogpApproximations: typeof ProxApprox.proxLogpApproximations; stalenessStats: typeof ProxApprox.stalenessStats };
let { proxLogpApproximations, stalenessStats } = {} as Functions;

const VOCAB = 16;
const CURRENT = 24;
const MAX_STALENESS = 16;
const LEARNING_RATE = 0.4;

/** log-softmax of a row of logits, as numbers. */
function logSoftmax(logits: Float32Array): Float32Array {
  const max = Math.max(...logits);
  const logTotal = Math.log(logits.reduce((s, z) => s + Math.exp(z - max), 0)) + max;
  return logits.map((z) => z - logTotal);
}

/** Versions 0…CURRENT of a policy climbing the expected reward Σ π(a)·r(a) by exact gradient steps. */
function policyVersions(): Float32Array[] {
  const rng = new Rng(3);
  const reward = Array.from({ length: VOCAB }, () => rng.uniform(0, 1));
  const logits = Float32Array.from({ length: VOCAB }, () => rng.normal(0, 0.5));
  const versions = [logits.slice()];
  for (let v = 1; v <= CURRENT; v++) {
    const p = logSoftmax(logits).map(Math.exp);
    const expected = p.reduce((s, pa, a) => s + pa * reward[a], 0);
    // d/dz_a Σ_b π_b r_b = π_a (r_a − Σ_b π_b r_b)
    p.forEach((pa, a) => (logits[a] += LEARNING_RATE * pa * (reward[a] - expected) * VOCAB));
    versions.push(logits.slice());
  }
  return versions.map(logSoftmax);
}

interface ApproxErrors {
  loglinear: number;
  linear: number;
  rollout: number;
}

/**
 * Mean |approximation − log π_prox| over the vocabulary, each token weighted by π_behave (how often
 * a stale rollout would contain it), for tokens generated `staleness` versions before CURRENT.
 */
function approximationErrors(logp: Float32Array[], staleness: number): ApproxErrors {
  const behaviour = logp[CURRENT - staleness];
  const truth = logp[CURRENT - 1];
  return tf.tidy(() => {
    const approx = proxLogpApproximations({
      oldLogp: tf.tensor2d(behaviour, [1, VOCAB]),
      logprobs: tf.tensor2d(logp[CURRENT], [1, VOCAB]),
      versions: tf.fill([1, VOCAB], CURRENT - staleness, "int32") as tf.Tensor2D,
      currentVersion: CURRENT,
    });
    const weights = tf.exp(tf.tensor2d(behaviour, [1, VOCAB]));
    const error = (x: tf.Tensor) => tf.sum(tf.mul(weights, tf.abs(tf.sub(x, tf.tensor2d(truth, [1, VOCAB]))))).dataSync()[0];
    return { loglinear: error(approx.loglinear), linear: error(approx.linear), rollout: error(approx.rollout) };
  });
}

/** A batch of B rollouts that started at random versions in [CURRENT − 8, CURRENT] and crossed weight updates. */
function simulatedBatch(rng: Rng, B: number, T: number) {
  const versions = new Int32Array(B * T);
  const mask = new Uint8Array(B * T);
  for (let b = 0; b < B; b++) {
    const promptLen = rng.int(2, 6);
    const end = rng.int(promptLen + 1, T);
    let version = rng.int(CURRENT - 8, CURRENT);
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (t < promptLen) versions[i] = -1;
      else if (t < end) {
        if (version < CURRENT && rng.next() < 0.05) version++;
        versions[i] = version;
        mask[i] = 1;
      }
    }
  }
  return { versions: tf.tensor2d(versions, [B, T], "int32"), mask: tf.tensor2d(mask, [B, T], "bool") };
}

const lab: Lab = async (ctx) => {
  if (ctx.args[0] === "temperature") return temperatureLab(ctx);
  console.log("Lab 30 — proximal approximation and staleness\n");
  ({ proxLogpApproximations, stalenessStats } = await labFunctions<Functions>(ctx, HOMES));
  console.log(`α for a token of version v_b when training version ${CURRENT} (v_prox = ${CURRENT - 1}):`);
  for (const s of [1, 2, 3, 4, 8, 16]) {
    const vb = CURRENT - s;
    console.log(`  staleness ${String(s).padStart(2)} (v_b = ${vb}): α = (${CURRENT - 1} − ${vb}) / (${CURRENT} − ${vb}) = ${((CURRENT - 1 - vb) / (CURRENT - vb)).toFixed(4)}`);
  }

  const logp = policyVersions();
  console.log(`\nA ${VOCAB}-token softmax policy trained for ${CURRENT} versions. Mean |approx − log π_prox|, weighted by π_behave:`);
  console.log("staleness   loglinear      linear     rollout");
  const rows = Array.from({ length: MAX_STALENESS }, (_, i) => i + 1).map((s) => ({ s, e: approximationErrors(logp, s) }));
  for (const { s, e } of rows) console.log(`${String(s).padStart(9)} ${[e.loglinear, e.linear, e.rollout].map((x) => x.toFixed(4).padStart(11)).join(" ")}`);
  console.log("(staleness 1 means v_b = v_prox: every method returns the behaviour log-prob, which is then exact)");

  const svg = lineChart({
    title: "Error of the proximal approximations",
    xLabel: "staleness v_θ − v_b",
    yLabel: "mean |approx − log π_prox|",
    series: [
      { name: "loglinear", points: rows.map(({ s, e }) => [s, e.loglinear] as const) },
      { name: "linear", points: rows.map(({ s, e }) => [s, e.linear] as const), dashed: true },
      { name: "rollout", points: rows.map(({ s, e }) => [s, e.rollout] as const) },
    ],
  });
  const file = join(ctx.outDir, "approximation-error.svg");
  writeFileSync(file, svg);
  console.log(`wrote ${ctx.show(file)}`);

  const { versions, mask } = simulatedBatch(new Rng(5), 8, 48);
  const stats = stalenessStats(versions, CURRENT, mask);
  tf.dispose([versions, mask]);
  console.log(`\nStaleness of a simulated asynchronous batch (8 rollouts started at versions ${CURRENT - 8}…${CURRENT}):`);
  if (stats === null) console.log("  no generated token under the mask");
  else {
    const show = (x: { avg: number; max: number; min: number }) => `avg ${x.avg.toFixed(2)}, max ${x.max}, min ${x.min}`;
    console.log(`  behind π_prox: ${show(stats.proximal)}`);
    console.log(`  behind π_θ:    ${show(stats.theta)}`);
    console.log(`  over ${stats.validTokens} generated tokens`);
  }
};

export default lab;
