/**
 * Lesson 17 — From pretrain to SFT: the weights' names are the interface between stages.
 *
 * A stage ends by saving a state dict (parameter name → tensor, MiniMind's names) and the next
 * stage starts by loading it into a freshly built model, matched name by name, as PyTorch's
 * `load_state_dict` does. Read lessons/17-pretrain-to-sft.md first; every function cites the
 * MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";

export interface LoadResult {
  /** Every parameter of the model, in the model's order: the loaded value, or its own when missing. */
  weights: Record<string, tf.Tensor>;
  /** Model parameters the state dict does not name, in the model's order (they keep their values). */
  missing: string[];
  /** State-dict entries the model has no parameter for, in the state dict's order (ignored). */
  unexpected: string[];
}

/**
 * Loads `stateDict` into a model whose current parameters are `model`, matching by name as
 * PyTorch's `load_state_dict(…, strict)` does.
 *
 * Returns new tensors (float32); neither input is changed or disposed. Throws an Error naming the
 * parameter and both shapes when a name matches but the shape differs (even when not strict), and,
 * when `strict`, an Error naming the missing and unexpected keys if there are any.
 *
 * Align with: trainer/trainer_utils.py:119-127
 */
export function loadStateDict(model: Record<string, tf.Tensor>, stateDict: Record<string, tf.Tensor>, strict: boolean): LoadResult {
  // BEGIN SOLUTION
  const missing = Object.keys(model).filter((name) => !(name in stateDict));
  const unexpected = Object.keys(stateDict).filter((name) => !(name in model));
  for (const [name, own] of Object.entries(model)) {
    const given = stateDict[name];
    if (given && given.shape.join(",") !== own.shape.join(",")) {
      throw new Error(`size mismatch for ${name}: the checkpoint has [${given.shape}], the model [${own.shape}]`);
    }
  }
  if (strict && (missing.length > 0 || unexpected.length > 0)) {
    throw new Error(`Error(s) in loading state_dict: missing key(s) ${JSON.stringify(missing)}; unexpected key(s) ${JSON.stringify(unexpected)}`);
  }
  const weights: Record<string, tf.Tensor> = {};
  for (const [name, own] of Object.entries(model)) {
    const given = stateDict[name];
    weights[name] = given ? tf.cast(given, "float32") : tf.clone(own); // a missing parameter keeps its value
  }
  return { weights, missing, unexpected };
  // END SOLUTION
}
