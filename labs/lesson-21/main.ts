/**
 * Lab 21 — real preference pairs through the DPO data path and lesson 22's loss.
 *
 * Reads the first pairs of datasets/corpus/dpo.jsonl, turns each into a DPO sample with lesson 21's
 * dpoSample (the course tokenizer), stacks them with dpoBatch, and scores the batch with a small
 * randomly initialised MiniMindTS twice — as the policy and as the frozen reference — through
 * lesson 22's tokenLogProbs and dpoLoss. With the policy equal to the reference every margin is 0
 * and the loss is ln 2 ≈ 0.6931; a few gradient steps on the policy then lower it.
 *   npm run lab lesson-21 [-- --pairs 4] [--max-length 48] [--use-reference all]
 */
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { ROOT } from "../../grader/engine/paths.js";
import { Rng } from "../../lib/random.js";
import { newReport, readJsonl } from "../../lib/data/jsonl.js";
import { miniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { courseTokenizer } from "../../lib/tokenizer.js";
import type * as DpoData from "../../exercises/lesson-21/dpo-data.js";
import type * as Dpo from "../../exercises/lesson-22/dpo.js";
import type { ChatMessage } from "../../exercises/lesson-4/chat-template.js";
import { labFunctions, type Lab } from "../lab.js";

type Functions = { dpoSample: typeof DpoData.dpoSample; dpoBatch: typeof DpoData.dpoBatch; tokenLogProbs: typeof Dpo.tokenLogProbs; dpoLoss: typeof Dpo.dpoLoss };

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 2) throw new Error(`--${name} needs an integer ≥ 2 (got ${args[i + 1]})`);
  return v;
}

const lab: Lab = async (ctx) => {
  const pairs = option(ctx.args, "pairs", 4);
  const maxLength = option(ctx.args, "max-length", 48);
  console.log("Lab 21: preference pairs → dpoSample → dpoBatch → lesson 22's DPO loss\n");
  const { dpoSample, dpoBatch, tokenLogProbs, dpoLoss } = await labFunctions<Functions>(ctx, { dpoSample: "lesson-21", dpoBatch: "lesson-21", tokenLogProbs: "lesson-22", dpoLoss: "lesson-22" });
  const tok = courseTokenizer();
  const report = newReport();
  const rng = new Rng(21);
  const samples: DpoData.DpoSample[] = [];
  const shown: string[] = [];
  const check = (v: unknown) => (Array.isArray((v as { chosen?: unknown })?.chosen) && Array.isArray((v as { rejected?: unknown })?.rejected) ? undefined : "no chosen/rejected lists");
  for await (const r of readJsonl<{ chosen: ChatMessage[]; rejected: ChatMessage[] }>(join(ROOT, "datasets", "corpus", "dpo.jsonl"), report, { check })) {
    if (samples.length >= pairs) break;
    samples.push(dpoSample(r.chosen, r.rejected, tok, maxLength, () => rng.next()));
    shown.push(`  ${JSON.stringify(r.chosen.at(-1)?.content)} over ${JSON.stringify(r.rejected.at(-1)?.content)} (prompt ${JSON.stringify(r.chosen[0]?.content)})`);
  }
  console.log(`${samples.length} pairs from datasets/corpus/dpo.jsonl, maxLength ${maxLength}, the course tokenizer:`);
  shown.forEach((s) => console.log(s));
  const batch = dpoBatch(samples);
  const masked = Array.from(batch.mask.sum(1).dataSync());
  console.log(`\nBatch: x, y ${JSON.stringify(batch.x.shape)} int32, mask float32; rows 0-${pairs - 1} chosen, ${pairs}-${2 * pairs - 1} rejected.`);
  console.log(`Masked targets per row: ${masked.join(", ")}`);

  if (tf.getBackend() === "wasm") {
    // Measured: on tfjs-backend-wasm 4.22, tf.oneHot(ids, depth, 1, 0, "float32") returns the int32 bits
    // read as float (1.4e-45 for 1), so tokenLogProbs is ≈ 0 and no gradient reaches the policy.
    console.log("\n(the wasm backend's oneHot with a float32 dtype is broken; this small model is scored on cpu)");
    await tf.setBackend("cpu");
  }
  const config = miniMindConfig({ vocabSize: tok.vocabSize, hiddenSize: 64, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: maxLength });
  const policy = MiniMindTS.init(config, 7);
  const reference = MiniMindTS.init(config, 7);
  const refLogps = tf.tidy(() => tokenLogProbs(reference.forward(batch.x).logits, batch.y));
  const lossOf = () => dpoLoss(refLogps, tokenLogProbs(policy.forward(batch.x, { training: true }).logits, batch.y), batch.mask, 0.1);
  const before = tf.tidy(() => lossOf().dataSync()[0]!);
  const variables = policy.trainableVariables();
  let gradNorm = 0;
  for (let step = 0; step < 10; step++) {
    tf.tidy(() => {
      const { grads } = tf.variableGrads(lossOf, variables);
      gradNorm = Math.sqrt(variables.reduce((n, v) => n + tf.sum(tf.square(grads[v.name]!)).dataSync()[0]!, 0));
      for (const v of variables) v.assign(tf.sub(v, tf.mul(grads[v.name]!, 0.5)));
    });
  }
  const after = tf.tidy(() => lossOf().dataSync()[0]!);
  console.log(`\nDPO loss (β = 0.1), policy = reference: ${before.toFixed(4)} (ln 2 = ${Math.LN2.toFixed(4)}); after 10 SGD steps (lr 0.5) on the policy: ${after.toFixed(4)} (last gradient norm ${gradNorm.toExponential(2)})`);
  if (report.skipped) console.log(`(${report.skipped} malformed line(s) skipped)`);
  tf.dispose([batch.x, batch.y, batch.mask, refLogps]);
  policy.dispose();
  reference.dispose();
};

export default lab;
