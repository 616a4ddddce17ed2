/**
 * Lab 22: what β does in DPO, measured. (1) The loss and its gradient weight against the margin z
 * for several β, as SVGs. (2) A toy policy (a table of next-token logits) trained with DPO on four
 * preference pairs for two values of β: the trace shows the chosen log-probs rising, the rejected
 * ones falling, and how far the policy drifts from its frozen reference. Runs your functions
 * where they pass grading, the reference elsewhere (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Dpo from "../../exercises/lesson-22/dpo.js";
import { labFunctions, type Lab, type LabContext } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { dpoLoss: "lesson-22", tokenLogProbs: "lesson-22" };
type Functions = { dpoLoss: typeof Dpo.dpoLoss; tokenLogProbs: typeof Dpo.tokenLogProbs };
let { dpoLoss, tokenLogProbs } = {} as Functions;

const BETAS = [0.05, 0.15, 0.5, 1];
const MARGINS = Array.from({ length: 161 }, (_, i) => -20 + i * 0.25);

/** One pair whose margin is z: the policy's chosen sum is z, everything else 0. Returns [loss, −∂loss/∂z]. */
function lossAndWeight(z: number, beta: number): [number, number] {
  return tf.tidy(() => {
    const ref = tf.zeros([2, 1]) as tf.Tensor2D;
    const mask = tf.ones([2, 1]) as tf.Tensor2D;
    const { value, grad } = tf.valueAndGrad((policy: tf.Tensor) => dpoLoss(ref, policy as tf.Tensor2D, mask, beta))(tf.tensor2d([[z], [0]]));
    return [value.dataSync()[0], -grad.dataSync()[0]];
  });
}

function curves(ctx: LabContext): void {
  console.log("Part 1: the DPO loss −log σ(β·z) and its gradient weight β·σ(−β·z) against the margin z");
  console.log(`  ${"z".padEnd(8)}${BETAS.map((b) => `loss β=${b}`.padStart(13)).join("")}${BETAS.map((b) => `weight β=${b}`.padStart(15)).join("")}`);
  for (const z of [-20, -5, 0, 5, 20]) {
    const rows = BETAS.map((b) => lossAndWeight(z, b));
    console.log(`  ${String(z).padEnd(8)}${rows.map(([l]) => l.toFixed(4).padStart(13)).join("")}${rows.map(([, w]) => w.toFixed(4).padStart(15)).join("")}`);
  }
  console.log("  At z = 0 every loss is log 2 = 0.6931 and every weight is β/2. A small β keeps the loss near log 2 over a wide");
  console.log("  range of margins; a large β saturates quickly, so pairs already ranked well stop contributing.\n");
  const series = (pick: 0 | 1) => BETAS.map((b) => ({ name: `β = ${b}`, points: MARGINS.map((z): [number, number] => [z, lossAndWeight(z, b)[pick]]) }));
  const lossFile = join(ctx.outDir, "dpo-loss-vs-margin.svg");
  writeFileSync(lossFile, lineChart({ title: "DPO loss against the margin", xLabel: "margin z = (π_c − π_r) − (ref_c − ref_r)", yLabel: "−log σ(β·z)", series: series(0), guides: [{ x: 0, label: "z = 0" }] }));
  const weightFile = join(ctx.outDir, "dpo-gradient-vs-margin.svg");
  writeFileSync(weightFile, lineChart({ title: "Gradient weight per pair", xLabel: "margin z", yLabel: "−∂loss/∂z = β·σ(−β·z)", series: series(1), guides: [{ x: 0, label: "z = 0" }] }));
  console.log(`  Wrote ${ctx.show(lossFile)} and ${ctx.show(weightFile)}\n`);
}

const T = 5;
const V = 8;
const PAIRS = 4;
const STEPS = 80;

/** Four preference pairs of T tokens over V ids: chosen rows, then rejected rows, as MiniMind stacks them. */
function preferenceBatch(): { labels: number[][]; mask: number[][] } {
  const rng = new Rng(22);
  const seq = () => Array.from({ length: T }, () => rng.int(0, V - 1));
  const chosen = Array.from({ length: PAIRS }, seq);
  const rejected = Array.from({ length: PAIRS }, seq);
  const mask = [...chosen, ...rejected].map(() => Array.from({ length: T }, (_, t) => (t === 0 ? 0 : 1)));
  return { labels: [...chosen, ...rejected], mask };
}

/** KL(π‖π_ref) per position, averaged: how far the trained table moved from the reference. */
function klFromReference(policy: tf.Tensor, ref: tf.Tensor): number {
  return tf.tidy(() => {
    const lp = tf.logSoftmax(policy);
    return tf.mean(tf.sum(tf.mul(tf.exp(lp), tf.sub(lp, tf.logSoftmax(ref))), -1)).dataSync()[0];
  });
}

function train(ctx: LabContext): void {
  const { labels, mask } = preferenceBatch();
  const B = 2 * PAIRS;
  console.log(`Part 2: a toy policy (a [T=${T}, V=${V}] table of logits, the same for every row) trained with DPO`);
  console.log(`  on ${PAIRS} pairs (rows 0-${PAIRS - 1} chosen, ${PAIRS}-${B - 1} rejected; position 0 is the prompt, masked), Adam lr 0.05`);
  const series: Array<{ name: string; points: Array<[number, number]>; dashed?: boolean }> = [];
  for (const beta of [0.1, 0.5]) {
    const rng = new Rng(7);
    const init = tf.tensor3d(rng.normals(T * V, 0, 0.5), [1, T, V]);
    const reference = tf.tile(init, [B, 1, 1]) as tf.Tensor3D;
    const table = tf.variable(init);
    const y = tf.tensor2d(labels, undefined, "int32");
    const m = tf.tensor2d(mask);
    const refLogProbs = tokenLogProbs(reference, y);
    const optimizer = tf.train.adam(0.05);
    const policyLogProbs = () => tokenLogProbs(tf.tile(table, [B, 1, 1]) as tf.Tensor3D, y);
    console.log(`\n  β = ${beta}`);
    console.log(`  ${"step".padEnd(6)}${"loss".padStart(9)}${"Σ chosen".padStart(11)}${"Σ rejected".padStart(12)}${"mean z".padStart(9)}${"KL(π‖ref)".padStart(11)}`);
    const lossPoints: Array<[number, number]> = [];
    const klPoints: Array<[number, number]> = [];
    for (let step = 0; step <= STEPS; step++) {
      if (step > 0) optimizer.minimize(() => dpoLoss(refLogProbs, policyLogProbs(), m, beta));
      const [loss, chosen, rejected, z] = tf.tidy(() => {
        const sums = tf.sum(tf.mul(policyLogProbs(), m), 1);
        const refSums = tf.sum(tf.mul(refLogProbs, m), 1);
        const [c, r] = tf.split(sums, 2);
        const [rc, rr] = tf.split(refSums, 2);
        const margin = tf.mean(tf.sub(tf.sub(c, r), tf.sub(rc, rr)));
        return [dpoLoss(refLogProbs, policyLogProbs(), m, beta), tf.mean(c), tf.mean(r), margin].map((t) => t.dataSync()[0]);
      });
      const kl = klFromReference(table, init);
      lossPoints.push([step, loss]);
      klPoints.push([step, kl]);
      if (step % 20 === 0) console.log(`  ${String(step).padEnd(6)}${loss.toFixed(4).padStart(9)}${chosen.toFixed(3).padStart(11)}${rejected.toFixed(3).padStart(12)}${z.toFixed(3).padStart(9)}${kl.toFixed(4).padStart(11)}`);
    }
    series.push({ name: `loss, β=${beta}`, points: lossPoints }, { name: `KL, β=${beta}`, points: klPoints, dashed: true });
    tf.dispose([init, reference, table, y, m, refLogProbs]);
    optimizer.dispose();
  }
  console.log("\n  Only the margin counts: with β = 0.1 even the chosen sum drifts down after step 20, while the rejected one falls");
  console.log("  faster. The loss sees z only through β·z, so a small β needs a wider margin, and so more drift from the reference,");
  console.log("  for the same loss: compare β = 0.1 at step 80 with β = 0.5 at step 20. β sets how tightly the reference anchors.");
  const file = join(ctx.outDir, "dpo-training.svg");
  writeFileSync(file, lineChart({ title: "Toy DPO training", xLabel: "Adam step", yLabel: "loss / KL(π‖ref)", series }));
  console.log(`  Wrote ${ctx.show(file)}`);
}

const lab: Lab = async (ctx) => {
  console.log("Lab 22: what β does in DPO\n");
  ({ dpoLoss, tokenLogProbs } = await labFunctions<Functions>(ctx, HOMES));
  curves(ctx);
  train(ctx);
};

export default lab;
