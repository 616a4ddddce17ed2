/**
 * Lab 31: what M2PO masks. Stale batches are simulated with a log-gap log π_behave − log π_prox
 * that is small for most tokens and heavy-tailed for a few; for growing staleness we report how
 * many tokens M2PO masks, the second moment before and after, and compare it with masking every
 * token whose own m2 exceeds τ. Runs your lesson functions where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as M2po from "../../exercises/lesson-31/m2po.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { m2poMask: "lesson-31" };
type Functions = { m2poMask: typeof M2po.m2poMask };
let { m2poMask } = {} as Functions;

const B = 16;
const T = 64;
const THRESHOLDS = [0.01, 0.04, 0.16];
const SCALES = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6];

/** A stale batch: gaps N(0, scale²) for most tokens, Student-t-like outliers (scale·5/|u|) for 5%. */
function staleBatch(rng: Rng, scale: number) {
  const gaps = Float32Array.from({ length: B * T }, () =>
    rng.next() < 0.05 ? (scale * 5 * Math.sign(rng.normal())) / Math.max(rng.next(), 0.2) : rng.normal(0, scale),
  );
  const prox = rng.uniforms(B * T, -4, 0);
  const old = prox.map((p, i) => p + gaps[i]);
  const lengths = Array.from({ length: B }, () => rng.int(T / 2, T));
  const mask = Uint8Array.from({ length: B * T }, (_, i) => (i % T < lengths[Math.floor(i / T)] ? 1 : 0));
  return { old, prox, mask };
}

interface Outcome {
  maskedShare: number;
  perTokenShare: number;
  m2Before: number;
  m2After: number;
}

function runM2po(batch: ReturnType<typeof staleBatch>, threshold: number): Outcome {
  const kept = tf.tidy(() =>
    m2poMask(tf.tensor2d(batch.old, [B, T]), tf.tensor2d(batch.prox, [B, T]), tf.tensor2d(batch.mask, [B, T], "bool"), threshold).dataSync(),
  );
  let valid = 0;
  let keptCount = 0;
  let aboveThreshold = 0;
  let sumBefore = 0;
  let sumAfter = 0;
  batch.mask.forEach((m, i) => {
    if (!m) return;
    const m2 = (batch.old[i] - batch.prox[i]) ** 2;
    valid++;
    sumBefore += m2;
    if (m2 >= threshold) aboveThreshold++;
    if (kept[i]) {
      keptCount++;
      sumAfter += m2;
    }
  });
  return { maskedShare: 1 - keptCount / valid, perTokenShare: aboveThreshold / valid, m2Before: sumBefore / valid, m2After: sumAfter / keptCount };
}

const lab: Lab = async (ctx) => {
  console.log("Lab 31 — M2PO\n");
  ({ m2poMask } = await labFunctions<Functions>(ctx, HOMES));
  console.log(`Stale batches of ${B}×${T} tokens; 5% heavy-tailed outliers. For each gap scale and τ:`);
  console.log("the share M2PO masks, the share a per-token rule (m2 ≥ τ) would mask, and the mean m2 before → after M2PO\n");
  const batches = SCALES.map((scale) => staleBatch(new Rng(Math.round(scale * 1000)), scale));
  const shares = THRESHOLDS.map((tau) => {
    console.log(`τ = ${tau}\n  scale   M2PO masks   m2 ≥ τ   mean m2 before → after`);
    return SCALES.map((scale, i) => {
      const o = runM2po(batches[i], tau);
      console.log(`  ${scale.toFixed(2)}  ${(100 * o.maskedShare).toFixed(1).padStart(9)}%  ${(100 * o.perTokenShare).toFixed(1).padStart(6)}%   ${o.m2Before.toFixed(3).padStart(6)} → ${o.m2After.toFixed(3)}`);
      return [scale, 100 * o.maskedShare] as const;
    });
  });
  console.log("\nM2PO masks only the outliers it must to bring the mean below τ; a per-token rule masks every");
  console.log("token above τ and, once the typical gap reaches √τ, throws most of the batch away.");

  const svg = lineChart({
    title: "Share of tokens M2PO masks",
    xLabel: "typical |log π_behave − log π_prox|",
    yLabel: "masked tokens (%)",
    series: THRESHOLDS.map((tau, j) => ({ name: `τ = ${tau}`, points: shares[j] })),
  });
  const file = join(ctx.outDir, "masked-share.svg");
  writeFileSync(file, svg);
  console.log(`\nwrote ${ctx.show(file)}`);
};

export default lab;
