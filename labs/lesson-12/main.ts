/**
 * Lab 12 — generation with and without the KV cache: the same tokens, very different work.
 * Uses lab 7's checkpoint (labs/lesson-7/out/pretrain_128.safetensors) when it exists, so the text
 * is readable; otherwise a random model. Prints both continuations, the positions fed to the
 * model and the time of every step, and charts the step times.
 *   npm run lab lesson-12 [-- --tokens 48]
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { loadModel } from "../../lib/model/checkpoint.js";
import { initialParameters } from "../../lib/model/params.js";
import { BOS_ID, BYTE_VOCAB_SIZE, decodeBytes, encodeBytes } from "../../lib/model/byte-tokenizer.js";
import type { CausalLm, ModelPieces } from "../../lib/model/types.js";
import { ROOT } from "../../grader/engine/paths.js";
import { labPieces, type Lab } from "../lab.js";

const CHECKPOINT = join(ROOT, "labs", "lesson-7", "out", "pretrain_128.safetensors");

function openModel(pieces: ModelPieces): { model: MiniMindTS; from: string } {
  if (existsSync(CHECKPOINT)) return { model: loadModel(CHECKPOINT, { pieces }), from: "lab 7's checkpoint" };
  const config = miniMindConfig({ vocabSize: BYTE_VOCAB_SIZE, hiddenSize: 128, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 256 });
  const weights = initialParameters(config, 12, 0.6);
  const model = new MiniMindTS(config, weights, { pieces });
  tf.dispose(Object.values(weights));
  return { model, from: "a random model (run `COURSE_BACKEND=wasm npm run lab lesson-7` first for readable text)" };
}

/** Wraps `model` to record, per forward call, how many positions it was fed and how long it took. */
function timed(model: CausalLm): { lm: CausalLm; steps: Array<{ positions: number; ms: number }> } {
  const steps: Array<{ positions: number; ms: number }> = [];
  const lm: CausalLm = {
    forward: (ids, opts) => {
      const t0 = performance.now();
      const out = model.forward(ids, opts);
      out.logits.dataSync();
      steps.push({ positions: ids.shape[1], ms: performance.now() - t0 });
      return out;
    },
  };
  return { lm, steps };
}

const lab: Lab = async (ctx) => {
  const i = ctx.args.indexOf("--tokens");
  console.log(`Lab 12: cached vs uncached generation, on the ${ctx.backend} backend\n`);
  const { pieces } = await labPieces(ctx, ["generate", "ropeFrequencies", "attention", "rmsNorm", "feedForward"]);
  const { model, from } = openModel(pieces);
  const asked = i >= 0 ? Number(ctx.args[i + 1]) : 48;
  // 16 positions are kept for the prompt (BOS + "The old man" is 12) inside the RoPE table.
  const cap = model.config.maxPositionEmbeddings - 16;
  const maxNewTokens = Math.min(asked, cap);
  console.log(`Model: ${from}.`);
  if (asked > cap) {
    console.log(`--tokens ${asked} is capped at ${cap} = maxPositionEmbeddings (${model.config.maxPositionEmbeddings}) − 16: the RoPE table has`);
    console.log(`${model.config.maxPositionEmbeddings} rows, prompt + new tokens must fit in it, and 16 rows are kept for the prompt.`);
  }
  console.log(`Both runs generate exactly ${maxNewTokens} tokens with eosTokenId null: nothing stops a row early, so the text`);
  console.log("runs on past the end of its sentence. A fair timing needs both runs to take the same number of");
  console.log("steps; lab 7's samples, which pass its EOS id, stop at the sentence's end.");

  const prompt = "The old man";
  const ids = tf.tensor2d([[BOS_ID, ...encodeBytes(prompt)]], undefined, "int32");
  const runs = [true, false].map((useCache) => {
    const { lm, steps } = timed(model);
    const t0 = performance.now();
    const out = pieces.generate(lm, ids, { maxNewTokens, eosTokenId: null, useCache });
    const ms = performance.now() - t0;
    const tokens = Array.from(out.dataSync()).slice(ids.shape[1]);
    out.dispose();
    return { useCache, steps, ms, tokens };
  });
  for (const r of runs) {
    const fed = r.steps.reduce((n, s) => n + s.positions, 0);
    console.log(`\n${r.useCache ? "with the cache   " : "without the cache"}: ${r.steps.length} steps, ${fed} positions fed, ${r.ms.toFixed(0)} ms`);
    console.log(`  ${JSON.stringify(prompt + decodeBytes(r.tokens))}`);
  }
  const same = runs[0].tokens.every((t, j) => t === runs[1].tokens[j]);
  console.log(`\nSame tokens: ${same ? "yes" : "NO: the cache changes the result, look for the bug"}.`);
  const ratio = runs[1].ms / runs[0].ms;
  console.log(
    ratio > 1
      ? `The cache made generation ${ratio.toFixed(1)}× faster: ${runs[0].steps.reduce((n, s) => n + s.positions, 0)} positions computed instead of ${runs[1].steps.reduce((n, s) => n + s.positions, 0)}.`
      : `At this tiny size the fixed cost of each step hides the saving (${ratio.toFixed(1)}×); it grows with the length of the text and the size of the model (the cpu backend, where each position costs more, already shows it).`,
  );

  const chart = join(ctx.outDir, "step-times.svg");
  writeFileSync(
    chart,
    lineChart({
      title: "Time per generation step",
      xLabel: "step",
      yLabel: "ms",
      series: runs.map((r) => ({ name: r.useCache ? "with cache" : "without cache", points: r.steps.map((s, j) => [j + 1, s.ms] as [number, number]), dashed: !r.useCache })),
    }),
  );
  console.log(`Wrote ${ctx.show(chart)}: without the cache a step costs more the longer the text; with it, every step after the first costs about the same.`);
  ids.dispose();
  model.dispose();
};

export default lab;
