/**
 * LoRA (trainer/train_lora.py): SFT's data and loss, starting from SFT weights (--from), with
 * rank-r adapters on every square projection and every other weight frozen; the weights file holds
 * the adapters alone (MiniMind's save_lora). Lessons 18-19 supply applyLora, mergeLora and
 * trainableParams through the resolver.
 */
import * as tf from "../../tf.js";
import { LoraModel, type LoraFunctions } from "../../model/lora.js";
import { initialParameters } from "../../model/params.js";
import type { PostTrainingStage } from "../stage-hooks.js";
import sft from "./sft.js";

/** MiniMind's apply_lora default rank (model/model_lora.py:21). */
export const LORA_RANK = 16;

const stage: PostTrainingStage = {
  ...sft,
  name: "lora",
  summary: "LoRA adapters on the square projections of SFT weights; only the adapters train",
  weightName: "lora_sft",
  // train_lora.py:84 uses 1e-4 for a 768-wide model; the tiny model takes a larger rate.
  settings: { ...sft.settings, learningRate: 1e-3 },
  functions: { ...sft.functions, applyLora: "lesson-19", trainableParams: "lesson-19", mergeLora: "lesson-18" },
  buildModel(ctx, config, weights, opts) {
    const fns = ctx.fns as unknown as LoraFunctions;
    if (!weights) ctx.log("LoRA on a seeded initialisation (no --from): pass --from runs/sft-tiny/full_sft_128.safetensors");
    const base = weights ?? initialParameters(config, ctx.settings.seed);
    // A resume checkpoint carries the adapters under their MiniMind names; --from weights do not.
    const saved = Object.fromEntries(Object.entries(base).filter(([n]) => n.includes(".lora.")));
    const adapters = Object.keys(saved).length > 0 ? saved : undefined;
    const lora = new LoraModel(config, base, fns, { rank: LORA_RANK, seed: ctx.settings.seed, adapters }, opts);
    if (!weights) tf.dispose(Object.values(base));
    return {
      model: lora.model,
      trainable: lora.trainable,
      named: { ...lora.model.params, ...lora.adapters },
      exportWeights: () => ({ ...lora.adapters }),
      describe: () => [
        `LoRA: rank ${lora.rank}, α = r, on ${lora.adaptedLayers} square projections; ` +
          `${lora.counts.trainableCount.toLocaleString("en")} trainable of ${lora.counts.totalCount.toLocaleString("en")} (${(100 * lora.counts.fraction).toFixed(2)}%)`,
      ],
      dispose: () => lora.dispose(),
    };
  },
};

export default stage;
