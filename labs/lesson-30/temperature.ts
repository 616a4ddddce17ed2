/**
 * Lab 30, temperature: the inference engine samples at temperature τ and reports log-probs of
 * softmax(logits / τ); the trainer scores the same tokens with its own forward pass. If the trainer
 * forgets τ (scores at 1), every importance weight π_train/π_behave drifts, although the weights are
 * identical. This lab measures the drift with lesson 25's perTokenLogps (with and without τ) and
 * lesson 30's mismatchKl, and counts the tokens a PPO clip of ε = 0.2 would see outside its window.
 *
 * Run: npm run lab lesson-30 -- temperature
 */
import * as tf from "../../lib/tf.js";
import { Rng } from "../../lib/random.js";
import type * as Logprobs from "../../exercises/lesson-25/logprobs.js";
import type * as Sources from "../../exercises/lesson-30/logp-sources.js";
import { labFunctions, type LabContext } from "../lab.js";

const HOMES = { perTokenLogps: "lesson-25", mismatchKl: "lesson-30" };
type Functions = { perTokenLogps: typeof Logprobs.perTokenLogps; mismatchKl: typeof Sources.mismatchKl };

const B = 16;
const T = 48;
const V = 256;
/** Logits of a peaked model: N(0, 1) plus a few strong candidates per position. */
const SCALE = 2.5;
const EPS = 0.2;

/** Seeded logits [B, T + 1, V] and tokens sampled from softmax(logits / τ) at every position. */
function rollout(seed: number, tau: number) {
  const rng = new Rng(seed);
  const logits = new Float32Array(B * (T + 1) * V);
  for (let i = 0; i < logits.length; i++) logits[i] = SCALE * rng.normals(1, 0, 1)[0];
  const ids = new Int32Array(B * (T + 1));
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const row = logits.subarray((b * (T + 1) + t) * V, (b * (T + 1) + t + 1) * V);
      const max = Math.max(...row);
      const weights = Array.from(row, (z) => Math.exp((z - max) / tau));
      let u = rng.next() * weights.reduce((s, w) => s + w, 0);
      let k = 0;
      while (k < V - 1 && (u -= weights[k]) > 0) k++;
      ids[b * (T + 1) + t + 1] = k; // position t's logits pick token t + 1
    }
  }
  return { logits: tf.tensor3d(logits, [B, T + 1, V]), ids: tf.tensor2d(ids, [B, T + 1], "int32") };
}

interface Row {
  tau: number;
  side: string;
  kl: { direct: number; taylor: number; dual: number };
  ratioMean: number;
  ratioMin: number;
  ratioMax: number;
  outside: number;
  below: number;
}

function measure(fns: Functions, tau: number, trainerTau: number, side: string): Row {
  const { logits, ids } = rollout(30 + Math.round(tau * 10), tau);
  let row: Row | undefined;
  try {
    tf.tidy(() => {
      const engine = fns.perTokenLogps(logits, ids, T, tau);
      const trainer = fns.perTokenLogps(logits, ids, T, trainerTau);
      const mask = tf.ones([B, T], "bool") as tf.Tensor2D;
      const kl = fns.mismatchKl(trainer, engine, mask) ?? { direct: 0, taylor: 0, dual: 0 };
      const ratio = Array.from(tf.exp(tf.sub(trainer, engine)).dataSync());
      const outside = ratio.filter((r) => Math.abs(r - 1) > EPS).length / ratio.length;
      const below = ratio.filter((r) => r < 1 - 1e-6).length / ratio.length;
      row = {
        tau,
        side,
        kl,
        ratioMean: ratio.reduce((s, r) => s + r, 0) / ratio.length,
        ratioMin: Math.min(...ratio),
        ratioMax: Math.max(...ratio),
        outside,
        below,
      };
    });
  } finally {
    tf.dispose([logits, ids]);
  }
  return row!;
}

export async function temperatureLab(ctx: LabContext): Promise<void> {
  console.log("Lab 30, temperature: what a forgotten sampling temperature does to π_train / π_behave\n");
  const fns = await labFunctions<Functions>(ctx, HOMES);
  console.log(`  ${B} answers × ${T} tokens over a vocabulary of ${V}, logits ~ N(0, ${SCALE}²), sampled at τ;`);
  console.log(`  the trainer scores the same tokens with the same weights, at τ (right) or at 1 (forgotten).\n`);
  const rows: Row[] = [];
  for (const tau of [0.6, 0.8, 1.0, 1.2]) {
    rows.push(measure(fns, tau, tau, "τ"));
    if (tau !== 1) rows.push(measure(fns, tau, 1, "1"));
  }
  const header = ["τ", "trainer", "kl direct", "kl taylor", "kl dual", "ratio mean", "min", "max", "r<1", `|r−1|>${EPS}`];
  const cells = rows.map((r) => [
    r.tau.toFixed(1),
    r.side === "τ" ? "at τ" : "at 1",
    r.kl.direct.toFixed(4),
    r.kl.taylor.toFixed(4),
    r.kl.dual.toFixed(4),
    r.ratioMean.toFixed(3),
    r.ratioMin.toFixed(3),
    r.ratioMax.toFixed(2),
    `${(100 * r.below).toFixed(0)}%`,
    `${(100 * r.outside).toFixed(0)}%`,
  ]);
  const widths = header.map((h, j) => Math.max(h.length, ...cells.map((c) => c[j].length)));
  console.log("  " + header.map((h, j) => h.padStart(widths[j])).join("  "));
  console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log("  " + c.map((x, j) => x.padStart(widths[j])).join("  "));
  console.log(`
  Reading it:
  - Scored at the sampler's τ, the trainer reproduces the engine's log-probs: every ratio is 1 and
    the three estimators are 0 (here the two sides run the same code; a real engine adds a small
    numerical mismatch, which is what AReaL's compute_logp/kl_div_* curves show).
  - Forget τ on one side and the weights are unchanged, yet the ratios spread far from 1: at τ < 1
    the sampler's favourites are likelier under it than under the plain model (most ratios fall
    below 1), while its rare picks are far likelier under the plain model (ratios up to 20+). Most
    tokens leave the clip window of ε = ${EPS}, and every PPO step fights a change that never happened.
  - The mean ratio stays near 1 in every row: E_behave[π_train/π_behave] = 1 for any two
    distributions, so a dashboard's average importance weight cannot show this; the KL can.
  - kl_div_dual is never negative, and it is the cleanest alarm: a jump from ~0 after a config change
    points at exactly this. AReaL passes the actor its own temperature (gsm8k_grpo.yaml:65, @ 4aef98d8).
`);
}
