/**
 * Lab 10 — one batch from ids to loss, then a few training steps.
 *
 * A character-level toy: the vocabulary is the characters of a short text. The model is MiniMind's
 * skeleton without attention (that is lesson 11): tied embedding → L × [x + FFN(RMSNorm(x))] →
 * RMSNorm → logits = h·Eᵀ → causalLmLoss. Without attention each position sees only its own
 * token, so the best it can learn is which character tends to follow which (a bigram model).
 * Prints every shape, compares the first loss with ln V, trains with Adam and plots the loss:
 * labs/lesson-10/out/loss.svg.
 *
 * Runs your functions of lessons 9, 10 and 13 where they pass grading, the reference elsewhere
 * (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { linear } from "../../lib/model/linear.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Rmsnorm from "../../exercises/lesson-9/rmsnorm.js";
import type * as Loss from "../../exercises/lesson-10/loss.js";
import type * as Ffn from "../../exercises/lesson-13/ffn.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { rmsNorm: "lesson-9", causalLmLoss: "lesson-10", feedForward: "lesson-13" };
type Functions = { rmsNorm: typeof Rmsnorm.rmsNorm; causalLmLoss: typeof Loss.causalLmLoss; feedForward: typeof Ffn.feedForward };
let { rmsNorm, causalLmLoss, feedForward } = {} as Functions;

const TEXT = "the quick brown fox jumps over the lazy dog. a lazy dog sleeps; the quick fox runs. ";
const STEPS = 40;

const shape = (x: tf.Tensor) => `[${x.shape.join(", ")}]`;

interface Weights {
  embedding: tf.Variable;
  blocks: Array<{ norm: tf.Variable; gate: tf.Variable; up: tf.Variable; down: tf.Variable }>;
  finalNorm: tf.Variable;
}

function initialWeights(rng: Rng, V: number, H: number, I: number, L: number): Weights {
  const normal = (shape: number[], std = 0.02) => tf.variable(tf.tensor(rng.normals(shape.reduce((a, b) => a * b, 1), 0, std), shape));
  return {
    embedding: normal([V, H]),
    blocks: Array.from({ length: L }, () => ({ norm: tf.variable(tf.ones([H])), gate: normal([I, H]), up: normal([I, H]), down: normal([H, I]) })),
    finalNorm: tf.variable(tf.ones([H])),
  };
}

/** ids [B, T] → logits [B, T, V]; `trace` prints each step's shape. */
function forward(w: Weights, ids: tf.Tensor2D, eps: number, trace?: (line: string) => void): tf.Tensor3D {
  let h: tf.Tensor = tf.gather(w.embedding, ids);
  trace?.(`embedding lookup: ids ${shape(ids)} → ${shape(h)}`);
  w.blocks.forEach((b, l) => {
    const normed = rmsNorm(h, b.norm as tf.Tensor1D, eps);
    h = tf.add(h, feedForward(normed, { gate: b.gate as tf.Tensor2D, up: b.up as tf.Tensor2D, down: b.down as tf.Tensor2D }));
    trace?.(`block ${l}: RMSNorm ${shape(normed)} → SwiGLU (${b.gate.shape[0]} wide) → stream ${shape(h)}`);
  });
  const final = rmsNorm(h, w.finalNorm as tf.Tensor1D, eps);
  trace?.(`final RMSNorm: ${shape(final)}`);
  const logits = linear(final, w.embedding as tf.Tensor2D) as tf.Tensor3D;
  trace?.(`LM head (tied: h·Eᵀ with E ${shape(w.embedding)}): logits ${shape(logits)}`);
  return logits;
}

const lab: Lab = async (ctx) => {
  const { outDir, show } = ctx;
  console.log("Lab 10: one batch from ids to loss, then a few training steps\n");
  ({ rmsNorm, causalLmLoss, feedForward } = await labFunctions<Functions>(ctx, HOMES));
  const vocabulary = [...new Set(TEXT)].sort();
  const V = vocabulary.length;
  const config = miniMindConfig({ vocabSize: V, hiddenSize: 32, numHiddenLayers: 2 });
  const { hiddenSize: H, intermediateSize: I, numHiddenLayers: L, rmsNormEps: eps } = config;
  const encoded = [...TEXT].map((c) => vocabulary.indexOf(c));
  const B = 4;
  const T = 16;
  const rng = new Rng(10);
  const windows = Array.from({ length: B }, () => rng.int(0, encoded.length - T));
  const ids = tf.tensor2d(windows.flatMap((s) => encoded.slice(s, s + T)), [B, T], "int32");
  const labels = ids.clone(); // no shift here: the loss shifts (dataset/lm_dataset.py:53)
  console.log(`vocabulary: ${V} characters; H=${H}, I=${I}, L=${L}; batch ${B} windows of ${T} characters`);
  console.log(`first window: ${JSON.stringify(TEXT.slice(windows[0], windows[0] + T))}\n`);

  const weights = initialWeights(rng, V, H, I, L);
  const first = tf.tidy(() => {
    const logits = forward(weights, ids, eps, (line) => console.log(`  ${line}`));
    console.log(`  shift: logits[:, :-1] ${shape(logits.slice([0, 0, 0], [B, T - 1, V]))} vs labels[:, 1:] [${B}, ${T - 1}]`);
    return causalLmLoss(logits, labels).dataSync()[0];
  });
  console.log(`\nloss at initialisation ${first.toFixed(4)} vs ln V = ${Math.log(V).toFixed(4)} (a uniform guess)`);

  const optimizer = tf.train.adam(1e-2);
  const losses: Array<[number, number]> = [[0, first]];
  const t0 = performance.now();
  for (let step = 1; step <= STEPS; step++) {
    const loss = optimizer.minimize(() => causalLmLoss(forward(weights, ids, eps), labels), true) as tf.Scalar;
    losses.push([step, loss.dataSync()[0]]);
    loss.dispose();
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`after ${STEPS} Adam steps: loss ${losses[STEPS][1].toFixed(4)} (${(STEPS / seconds).toFixed(1)} steps/s on this backend)`);
  console.log("without attention the model cannot use context: it learns which character follows which, no more.");

  const file = join(outDir, "loss.svg");
  writeFileSync(
    file,
    lineChart({
      title: "Next-character loss of a tiny attention-free MiniMind",
      xLabel: "step",
      yLabel: "cross-entropy (nats)",
      series: [
        { name: "causalLmLoss", points: losses },
        { name: "ln V (uniform guess)", points: [[0, Math.log(V)], [STEPS, Math.log(V)]], dashed: true },
      ],
    }),
  );
  console.log(`wrote ${show(file)}`);
  optimizer.dispose();
  tf.dispose([ids, labels, weights.embedding, weights.finalNorm, ...weights.blocks.flatMap((b) => [b.norm, b.gate, b.up, b.down])]);
};

export default lab;
