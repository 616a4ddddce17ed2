/**
 * Lab 19 — LoRA on a narrow task, the way trainer/train_lora.py does it: a base model, adapters
 * on its square projections (lesson 19's applyLora), everything else frozen (trainableParams),
 * training that moves only the adapters, an adapter-only file, and a merge for export.
 *
 * The task: sign every sentence as the owl does ("… So says the owl."). The metric: on held-out
 * sentences the model never saw, how often the greedy continuation after the sentence is exactly
 * the signature, and the held-out loss of the signed text, before and after. About 3-5 minutes on
 * the wasm backend (the first run also pretrains the base, cached after):
 *   COURSE_BACKEND=wasm npm run lab lesson-19 [-- --steps 200] [--rank 8] [--base <pretrain.safetensors>]
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { lineChart } from "../../lib/svg.js";
import { saveModel } from "../../lib/model/checkpoint.js";
import { LoraModel, saveAdapters, type LoraFunctions } from "../../lib/model/lora.js";
import { stepOn } from "../../lib/model/step.js";
import { AdamW } from "../../lib/model/train.js";
import type { PieceName } from "../../lib/model/pieces.js";
import { labPieces, type Lab } from "../lab.js";
import { argValue, BASE_DIR, batches, clipGradNorm, continueText, corpusSentences, heldOutLoss, labConfig, pretrainedBase, samplesOf, scheduleLr, seconds } from "../post-training.js";

export const SIGNATURE = " So says the owl.";
const MAX_LEN = 80;

/** The metric: the share of `sentences` whose greedy continuation is exactly the signature. */
function signedShare(model: Parameters<typeof continueText>[0], sentences: readonly string[]): { share: number; examples: string[] } {
  let hits = 0;
  const examples: string[] = [];
  for (const s of sentences) {
    const next = continueText(model, s, SIGNATURE.length + 4);
    if (next === SIGNATURE) hits++;
    if (examples.length < 3) examples.push(`${JSON.stringify(s)} → ${JSON.stringify(next)}`);
  }
  return { share: hits / sentences.length, examples };
}

const lab: Lab = async (ctx) => {
  const steps = Number(argValue(ctx.args, "steps", ctx.backend === "cpu" ? "3" : "200"));
  const rank = Number(argValue(ctx.args, "rank", "8"));
  const baseSteps = Number(argValue(ctx.args, "base-steps", ctx.backend === "cpu" ? "3" : "300"));
  console.log(`Lab 19: LoRA on a narrow task, ${ctx.backend} backend${ctx.backend === "cpu" ? " (a few steps only: COURSE_BACKEND=wasm runs the real thing)" : ""}\n`);

  const config = labConfig();
  const running: PieceName[] = ["rmsNorm", "attention", "ropeFrequencies", "feedForward", "causalLmLoss", "generate"];
  const { pieces, extra: fns } = await labPieces<LoraFunctions>(ctx, running, { mergeLora: "lesson-18", applyLora: "lesson-19", trainableParams: "lesson-19" });
  const base = pretrainedBase({ outDir: BASE_DIR, config, steps: baseSteps, path: argValue(ctx.args, "base"), modelOptions: { pieces }, log: console.log });

  const { train, heldOut } = corpusSentences();
  const signed = (xs: readonly string[]) => xs.map((s) => s + SIGNATURE);
  const trainSamples = samplesOf(signed(train), MAX_LEN);
  const heldSamples = samplesOf(signed(heldOut), MAX_LEN);

  const lora = new LoraModel(config, base.model.params, fns, { rank, seed: 42 }, { pieces });
  base.model.dispose();
  const model = lora.model;
  const { trainableCount, totalCount } = lora.counts;
  console.log(`Base: ${base.path.replace(`${process.cwd()}/`, "")}, ${(totalCount - trainableCount).toLocaleString("en")} parameters, all frozen.`);
  console.log(`LoRA: rank ${rank}, α = r (MiniMind's scale 1), on ${lora.adaptedLayers} square projections (q_proj, o_proj of each layer):`);
  console.log(`  ${trainableCount.toLocaleString("en")} trainable of ${totalCount.toLocaleString("en")} (${((100 * trainableCount) / totalCount).toFixed(2)}%, train_lora.py:133-137)\n`);

  const before = { loss: heldOutLoss(model, heldSamples), ...signedShare(model, heldOut) };
  console.log(`Before: held-out loss of signed sentences ${before.loss.toFixed(3)}; signs ${(100 * before.share).toFixed(0)}% of ${heldOut.length} held-out sentences`);
  for (const e of before.examples) console.log(`  ${e}`);

  const optimizer = new AdamW(lora.trainable);
  const losses: Array<[number, number]> = [];
  const started = performance.now();
  let step = 0;
  for (const b of batches(trainSamples, 16, steps, 7)) {
    const r = stepOn(lora.trainable, optimizer, () => model.loss(b.ids, b.labels).loss, scheduleLr(++step, steps, 1e-2), clipGradNorm);
    tf.dispose([b.ids, b.labels]);
    losses.push([step, r.loss]);
    if (step % 25 === 0 || step === steps) console.log(`  step ${step}/${steps}  loss ${r.loss.toFixed(3)}  (${seconds(performance.now() - started)})`);
  }
  const wall = performance.now() - started;

  const after = { loss: heldOutLoss(model, heldSamples), ...signedShare(model, heldOut) };
  console.log(`\nAfter ${steps} steps (${seconds(wall)}): held-out loss ${before.loss.toFixed(3)} → ${after.loss.toFixed(3)}; signs ${(100 * before.share).toFixed(0)}% → ${(100 * after.share).toFixed(0)}% of held-out sentences`);
  for (const e of after.examples) console.log(`  ${e}`);

  const adapterPath = join(ctx.outDir, `lora_owl_${config.hiddenSize}.safetensors`);
  const mergedPath = join(ctx.outDir, `merged_owl_${config.hiddenSize}.safetensors`);
  saveAdapters(lora, adapterPath);
  const merged = lora.merged(fns, { pieces });
  saveModel(merged, mergedPath);
  const mergedShare = signedShare(merged, heldOut).share;
  merged.dispose();
  const [aBytes, mBytes] = [statSync(adapterPath).size, statSync(mergedPath).size];
  console.log(`\nAdapter file ${ctx.show(adapterPath)}: ${(aBytes / 1024).toFixed(1)} KB; a whole model ${(mBytes / 1024).toFixed(1)} KB (${((100 * aBytes) / mBytes).toFixed(1)}%).`);
  console.log(`Merged model (W + B·A, merge_lora): signs ${(100 * mergedShare).toFixed(0)}% of held-out sentences (the adapter: ${(100 * after.share).toFixed(0)}%).`);

  const chart = join(ctx.outDir, "lora-loss.svg");
  writeFileSync(chart, lineChart({ title: "LoRA training loss (owl signature)", xLabel: "step", yLabel: "cross-entropy", series: [{ name: "training loss", points: losses }] }));
  console.log(`Wrote ${ctx.show(chart)}.`);
  lora.dispose();
};

export default lab;
