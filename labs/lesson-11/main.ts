/**
 * Lab 11 — shapes through one MiniMind block, at MiniMind's default sizes (hidden 768, 8 query
 * heads over 4 kv heads of 96): every step of the attention layer printed with its shape, then the
 * block's residual additions, and a chart of where the last token looks, head by head.
 *   npm run lab lesson-11
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { names } from "../../lib/model/params.js";
import { BOS_ID, encodeBytes } from "../../lib/model/byte-tokenizer.js";
import type { ProjectQkv } from "../../lib/model/types.js";
import type * as Attention from "../../exercises/lesson-11/attention.js";
import { labPieces, type Lab } from "../lab.js";

const shape = (t: tf.Tensor) => `[${t.shape.join(", ")}]`;

const lab: Lab = async (ctx) => {
  console.log("Lab 11: one MiniMind block, traced\n");
  // The trace also calls attention's parts itself: projectQkv (a helper of the reference) and repeatKv.
  const { pieces, extra } = await labPieces<{ projectQkv: ProjectQkv; repeatKv: typeof Attention.repeatKv }>(ctx, ["rmsNorm", "ropeFrequencies", "attention", "feedForward"], {
    projectQkv: "lesson-11",
    repeatKv: "lesson-11",
  });
  const { projectQkv, repeatKv } = extra;
  const config = miniMindConfig({ numHiddenLayers: 1, maxPositionEmbeddings: 64 });
  const model = MiniMindTS.init(config, 11, { pieces });
  const text = "Hello, MiniMind!";
  const ids = tf.tensor2d([[BOS_ID, ...encodeBytes(text)]], undefined, "int32");
  const [B, S] = ids.shape;
  const { numAttentionHeads: Hq, numKeyValueHeads: Hkv, headDim: D, hiddenSize: H } = config;
  console.log(`config: hidden H=${H}, Hq=${Hq} query heads, Hkv=${Hkv} kv heads (nRep=${Hq / Hkv}), head_dim D=${D}; ${JSON.stringify(text)} is ${S} byte tokens with BOS\n`);

  const probs = tf.tidy(() => {
    const w = (n: string) => model.params[n];
    const step = (what: string, t: tf.Tensor, note = "") => console.log(`  ${what.padEnd(44)} ${shape(t).padEnd(18)} ${note}`);
    const x = tf.gather(w(names.embed), ids) as tf.Tensor3D;
    step("embed_tokens(ids)", x, "the residual stream");
    const normed = pieces.rmsNorm(x, w(names.inputNorm(0)) as tf.Tensor1D, config.rmsNormEps) as tf.Tensor3D;
    step("input_layernorm", normed, "what attention reads");
    const table = pieces.ropeFrequencies(D, S, config.ropeTheta);
    step("RoPE table rows 0 … S−1 (cos, sin)", table.cos);
    const weights = {
      wq: w(names.attn(0, "q_proj")) as tf.Tensor2D,
      wk: w(names.attn(0, "k_proj")) as tf.Tensor2D,
      wv: w(names.attn(0, "v_proj")) as tf.Tensor2D,
      wo: w(names.attn(0, "o_proj")) as tf.Tensor2D,
      qNorm: w(names.attn(0, "q_norm")) as tf.Tensor1D,
      kNorm: w(names.attn(0, "k_norm")) as tf.Tensor1D,
    };
    step("q_proj weight", weights.wq, "[Hq·D, H]");
    step("k_proj / v_proj weight", weights.wk, "[Hkv·D, H]: half the size of q_proj");
    const opts = { numHeads: Hq, numKvHeads: Hkv, cos: table.cos, sin: table.sin, useCache: true, eps: config.rmsNormEps };
    const { q, k, v } = projectQkv(normed, weights, opts);
    step("q: project, view as heads, q_norm, RoPE", q, "[B, S, Hq, D]");
    step("k: project, view as heads, k_norm, RoPE", k, "[B, S, Hkv, D]: this is what the cache keeps");
    step("v: project, view as heads", v, "[B, S, Hkv, D]");
    const kRep = repeatKv(k, Hq / Hkv);
    step("repeatKv(k)", kRep, "query head h reads kv head ⌊h/nRep⌋");
    const scores = tf.div(tf.matMul(tf.transpose(q, [0, 2, 1, 3]), tf.transpose(kRep, [0, 2, 1, 3]), false, true), Math.sqrt(D));
    step("scores = q·kᵀ/√D", scores, "[B, Hq, S, T]");
    const causal = tf.tensor2d(Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (j > i ? -Infinity : 0))));
    const p = tf.softmax(tf.add(scores, causal));
    step("softmax(scores + causal mask)", p, "each row sums to 1 over keys j ≤ i");
    const attn = pieces.attention(normed, weights, opts);
    step("attention(...).output (after o_proj)", attn.output, "[B, S, H]");
    const h = tf.add(x, attn.output);
    step("x + attention", h, "first residual addition");
    const ffnIn = pieces.rmsNorm(h, w(names.postNorm(0)) as tf.Tensor1D, config.rmsNormEps);
    step("post_attention_layernorm", ffnIn);
    step("gate_proj / up_proj weight", w(names.mlp(0, "gate_proj")), `[I, H], I = ⌈H·π/64⌉·64 = ${config.intermediateSize}`);
    const mlp = pieces.feedForward(ffnIn, { gate: w(names.mlp(0, "gate_proj")) as tf.Tensor2D, up: w(names.mlp(0, "up_proj")) as tf.Tensor2D, down: w(names.mlp(0, "down_proj")) as tf.Tensor2D });
    const out = tf.add(h, mlp);
    step("h + feed-forward", out, "the block's output: same shape as its input");
    const viaModel = model.forward(ids).logits;
    step("logits of the whole (1-block) model", viaModel, "[B, S, V]");
    return tf.slice(p, [0, 0, S - 1, 0], [B, Hq, 1, S]).reshape([Hq, S]);
  });

  const rows = probs.arraySync() as number[][];
  const chart = join(ctx.outDir, "attention-last-token.svg");
  writeFileSync(
    chart,
    lineChart({
      title: `Where the last token looks (untrained weights, ${Hq} heads)`,
      xLabel: "key position",
      yLabel: "attention weight",
      series: rows.map((r, h) => ({ name: `head ${h} (kv ${Math.floor(h / (Hq / Hkv))})`, points: r.map((y, j) => [j, y] as [number, number]) })),
    }),
  );
  console.log(`\nWrote ${ctx.show(chart)}: the last position's weights over all ${S} keys, per head.`);
  console.log("Heads that share a kv head see the same keys but weigh them differently: their queries differ.");
  tf.dispose([probs, ids]);
  model.dispose();
};

export default lab;
