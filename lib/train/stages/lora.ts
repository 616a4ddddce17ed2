/**
 * LoRA (trainer/train_lora.py): SFT's data and loss, starting from SFT weights (--from), with
 * rank-r adapters on every square projection and every other weight frozen; the weights file holds
 * the adapters alone (MiniMind's save_lora). Lessons 18-19 supply applyLora, mergeLora and
 * trainableParams through the resolver.
 */
import * as tf from "../../tf.js";
import { LoraModel, type LoraFunctions } from "../../model/lora.js";
import type { PostTrainingStage } from "../stage-hooks.js";
import sft from "./sft.js";

/** MiniMind's apply_lora default rank (model/model_lora.py:21). */
export const LORA_RANK = 16;

const stage: PostTrainingStage = {
  ...sft,
  name: "lora",
  summary: "LoRA adapters on the square projections of SFT weights; only the adapters train",
  weightName: "lora_sft",
  // train_lora.py:84 uses 1e-4 for a 768-wide model; the tiny model takes the pretraining-size rate.
  settings: { ...sft.settings, learningRate: 1e-3 },
  functions: { ...sft.functions, applyLora: "lesson-19", trainableParams: "lesson-19", mergeLora: "lesson-18" },
  buildModel(ctx, config, weights, opts) {
    const fns = ctx.fns as unknown as LoraFunctions;
    const base = weights ?? {};
    // A resume checkpoint carries the adapters under their MiniMind names; --from weights do not.
    const saved = Object.fromEntries(Object.entries(base).filter(([n]) => n.includes(".lora.")));
    const haveSaved = Object.keys(saved).length > 0;
    if (!weights) ctx.log("LoRA on a seeded initialisation (no --from): pass --from runs/sft-tiny/full_sft_128.safetensors");
    const init = weights ? undefined : tf.tidy(() => ({}) as Record<string, tf.Tensor>);
    const lora = new LoraModel(config, weights ?? seeded(config, ctx.settings.seed), fns, { rank: LORA_RANK, seed: ctx.settings.seed, adapters: haveSaved ? saved : undefined }, opts);
    void init;
    return {
      model: lora.model,
      trainable: lora.trainable,
      named: { ...lora.model.params, ...lora.adapters },
      exportWeights: () => ({ ...lora.adapters }),
      describe: () => [
        `LoRA: rank ${lora.rank}, α = r, on ${lora.adaptedLayers} square projections; ${lora.counts.trainableCount.toLocaleString("en")} trainable of ${lora.counts.totalCount.toLocaleString("en")} (${(100 * lora.counts.fraction).toFixed(2)}%)`,
      ],
      dispose: () => lora.dispose(),
    };
  },
};

/** A seeded model's weights, for a LoRA run without --from (useful only to test the machinery). */
import { initialParameters } from "../../model/params.js";
function seeded(config: Parameters<typeof initialParameters>[0], seed: number): Record<string, tf.Tensor> {
  return initialParameters(config, seed);
}

export default stage;
