/**
 * Lesson 19 — LoRA training: which layers get an adapter, and which parameters the optimiser sees.
 *
 * Weights are named as in MiniMind's state_dict ("model.layers.0.self_attn.q_proj.weight"); an
 * adapter on the module "M" is the pair "M.lora.A.weight" [r, in] and "M.lora.B.weight" [out, r],
 * the names MiniMind's save_lora writes. Read lessons/19-lora-training.md first; every function
 * cites the MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";

/** The token embedding: a 2-D weight, but a lookup table, not a linear layer. */
export const EMBEDDING_NAME = "model.embed_tokens.weight";

/**
 * Draws the initial values of one adapter's A matrix: `name` is the adapter weight's full name
 * ("….lora.A.weight") and `shape` is [r, in]. The course draws N(0, 0.02²) from a seed.
 */
export type InitA = (name: string, shape: [number, number]) => tf.Tensor2D;

/**
 * A fresh rank-`rank` adapter for every linear layer that MiniMind adapts, named as save_lora
 * names them. `weights`: the model's parameters by name (2-D linear weights [out, in], 1-D norm
 * gains, the embedding); only names ending in ".weight" are modules' weights.
 * Returns a new record of the adapters only, in the order of their layers in `weights`, each
 * adapter's A then B; A comes from `initA`. The adapters start as a no-op. `weights` is neither
 * changed nor disposed.
 *
 * Align with: model/model_lora.py:6-15, 21-25
 */
export function applyLora(weights: Record<string, tf.Tensor>, rank: number, initA: InitA): Record<string, tf.Tensor2D> {
  // BEGIN SOLUTION
  const adapters: Record<string, tf.Tensor2D> = {};
  for (const [name, w] of Object.entries(weights)) {
    if (!name.endsWith(".weight") || w.rank !== 2 || name === EMBEDDING_NAME) continue; // not a linear layer
    const [out, inFeatures] = w.shape;
    if (out !== inFeatures) continue; // MiniMind adapts square layers only (model_lora.py:23)
    const module = name.slice(0, -".weight".length);
    adapters[`${module}.lora.A.weight`] = initA(`${module}.lora.A.weight`, [rank, inFeatures]); // Gaussian
    adapters[`${module}.lora.B.weight`] = tf.zeros([out, rank]); // zero: B·A = 0 at the start
  }
  return adapters;
  // END SOLUTION
}

export interface TrainableSummary {
  /** Names of the parameters the optimiser updates, in input order. */
  trainable: string[];
  /** Number of numbers in those parameters. */
  trainableCount: number;
  /** Number of numbers in every parameter given, trainable or frozen. */
  totalCount: number;
}

/**
 * Which parameters LoRA training updates, and how many numbers that is out of the whole model.
 *
 * `shapes`: every parameter of the model with its adapters injected, name → shape ([] for a
 * scalar). Adapters carry "lora" in their name; everything else is frozen. With no adapters the
 * result is an empty list and a count of 0.
 *
 * Align with: trainer/train_lora.py:132-146
 */
export function trainableParams(shapes: Record<string, readonly number[]>): TrainableSummary {
  // BEGIN SOLUTION
  const size = (shape: readonly number[]) => shape.reduce((p, d) => p * d, 1);
  const trainable: string[] = [];
  let trainableCount = 0;
  let totalCount = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    totalCount += size(shape);
    if (!name.includes("lora")) continue; // frozen: requires_grad = False
    trainable.push(name);
    trainableCount += size(shape);
  }
  return { trainable, trainableCount, totalCount };
  // END SOLUTION
}
