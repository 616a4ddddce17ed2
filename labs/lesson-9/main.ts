/**
 * Lab 9 — the residual stream, traced.
 *
 * Builds a small MiniMind config, embeds a batch of ids, and follows the shapes through blocks of
 * the form x + FFN(RMSNorm(x)) (attention joins in lesson 11). Then it stacks 24 such blocks three
 * ways (pre-norm as MiniMind, post-norm as the original Transformer, and no norm at all) and plots
 * log10 of the residual stream's RMS after each block: labs/lesson-9/out/stream-rms.svg (the
 * no-norm curve stops where it overflows).
 *
 * Runs your functions of lessons 8, 9 and 13 where they pass grading, the reference elsewhere
 * (the lab prints which).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { lineChart } from "../../lib/svg.js";
import { Rng } from "../../lib/random.js";
import type * as Params from "../../exercises/lesson-8/params.js";
import type * as Rmsnorm from "../../exercises/lesson-9/rmsnorm.js";
import type * as Ffn from "../../exercises/lesson-13/ffn.js";
import type { FfnWeights } from "../../exercises/lesson-13/ffn.js";
import { labFunctions, type Lab } from "../lab.js";

/** The lesson functions this lab runs, through lib/resolver.ts: yours where they pass grading, else the reference. */
const HOMES = { countParams: "lesson-8", preNormResidual: "lesson-9", rmsNorm: "lesson-9", feedForward: "lesson-13" };
type Functions = { countParams: typeof Params.countParams; preNormResidual: typeof Rmsnorm.preNormResidual; rmsNorm: typeof Rmsnorm.rmsNorm; feedForward: typeof Ffn.feedForward };
let { countParams, preNormResidual, rmsNorm, feedForward } = {} as Functions;

const normal = (rng: Rng, shape: number[], std: number) => tf.tensor(rng.normals(shape.reduce((a, b) => a * b, 1), 0, std), shape);

/** SwiGLU weights with N(0, 1/fan_in) entries, so each sublayer's output has a size comparable to its input. */
function ffnWeights(rng: Rng, H: number, I: number): FfnWeights {
  return {
    gate: normal(rng, [I, H], 1 / Math.sqrt(H)) as tf.Tensor2D,
    up: normal(rng, [I, H], 1 / Math.sqrt(H)) as tf.Tensor2D,
    down: normal(rng, [H, I], 1 / Math.sqrt(I)) as tf.Tensor2D,
  };
}

/** Root mean square over every element: the typical size of one feature. */
const rms = (x: tf.Tensor) => tf.tidy(() => tf.sqrt(tf.mean(tf.square(x))).dataSync()[0]);

const shape = (x: tf.Tensor) => `[${x.shape.join(", ")}]`;

type Variant = "pre-norm (MiniMind)" | "post-norm" | "no norm";

/** One block's MLP half in each arrangement. */
function block(variant: Variant, x: tf.Tensor, gain: tf.Tensor1D, eps: number, w: FfnWeights): tf.Tensor {
  const sublayer = (h: tf.Tensor) => feedForward(h, w);
  if (variant === "pre-norm (MiniMind)") return preNormResidual(x, gain, eps, sublayer);
  if (variant === "post-norm") return tf.tidy(() => rmsNorm(tf.add(x, sublayer(x)), gain, eps));
  return tf.tidy(() => tf.add(x, sublayer(x)));
}

const lab: Lab = async (ctx) => {
  const { outDir, show } = ctx;
  console.log("Lab 9: the residual stream, traced\n");
  ({ countParams, preNormResidual, rmsNorm, feedForward } = await labFunctions<Functions>(ctx, HOMES));
  const config = miniMindConfig({ hiddenSize: 64, numHiddenLayers: 4, vocabSize: 256, numAttentionHeads: 4, numKeyValueHeads: 2 });
  const { hiddenSize: H, intermediateSize: I, vocabSize: V, rmsNormEps: eps } = config;
  const counts = countParams(config);
  console.log(`config: V=${V} H=${H} L=${config.numHiddenLayers} I=${I} (⌈H·π/64⌉·64), ${counts.total} parameters in the full model`);

  const rng = new Rng(9);
  const B = 2;
  const T = 6;
  const embedding = normal(rng, [V, H], 0.02) as tf.Tensor2D; // MiniMind's init: N(0, 0.02²)
  const ids = tf.tensor2d(Int32Array.from({ length: B * T }, () => rng.int(0, V - 1)), [B, T], "int32");
  const gain = tf.ones([H]) as tf.Tensor1D;
  const layers = Array.from({ length: config.numHiddenLayers }, () => ffnWeights(rng, H, I));

  console.log("\nshape trace (one block = x + FFN(RMSNorm(x)); attention comes in lesson 11)");
  let stream: tf.Tensor = tf.gather(embedding, ids);
  console.log(`  ids ${shape(ids)} int32 → embedding lookup ${shape(stream)}, RMS ${rms(stream).toFixed(4)}`);
  layers.forEach((w, l) => {
    const normed = rmsNorm(stream, gain, eps);
    const update = feedForward(normed, w);
    const next = tf.add(stream, update);
    console.log(
      `  block ${l}: RMSNorm ${shape(normed)} (RMS ${rms(normed).toFixed(4)}) → FFN ${shape(normed)}→[${B}, ${T}, ${I}]→${shape(update)}` +
        ` → stream ${shape(next)}, RMS ${rms(next).toFixed(4)}`,
    );
    tf.dispose([normed, update, stream]);
    stream = next;
  });
  const final = rmsNorm(stream, gain, eps);
  console.log(`  final RMSNorm ${shape(final)}, RMS ${rms(final).toFixed(4)} → ready for the LM head (lesson 10)`);
  tf.dispose([final, stream, ids, embedding, ...layers.flatMap((w) => [w.gate, w.up, w.down])]);

  const depth = 24;
  const deep = Array.from({ length: depth }, () => ffnWeights(rng, H, I));
  const start = normal(rng, [B, T, H], 1);
  const variants: Variant[] = ["pre-norm (MiniMind)", "post-norm", "no norm"];
  console.log(`\n${depth} blocks from a unit-RMS input, three arrangements:`);
  const curves = variants.map((variant) => {
    let x = start.clone();
    const sizes = [rms(x)];
    deep.forEach((w) => {
      const next = block(variant, x, gain, eps, w);
      x.dispose();
      x = next;
      sizes.push(rms(x));
    });
    x.dispose();
    const finite = sizes.filter((v) => Number.isFinite(v));
    console.log(`  ${variant.padEnd(20)} RMS after 1, 6, 12, 24 blocks: ${[1, 6, 12, 24].map((l) => sizes[l].toPrecision(3)).join(", ")}`);
    return { name: variant, points: finite.map((v, l): [number, number] => [l, Math.log10(v)]) };
  });
  console.log("pre-norm lets the stream grow while every sublayer still reads a unit-RMS input;");
  console.log("post-norm pins the stream itself to RMS 1; without a norm each block amplifies the next one's input.");
  tf.dispose([start, gain, ...deep.flatMap((w) => [w.gate, w.up, w.down])]);

  const file = join(outDir, "stream-rms.svg");
  writeFileSync(file, lineChart({ title: "Residual stream RMS, block by block", xLabel: "block", yLabel: "log10 RMS of the stream", series: curves }));
  console.log(`\nwrote ${show(file)}`);
};

export default lab;
