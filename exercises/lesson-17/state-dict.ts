/**
 * Lesson 17 — From pretrain to SFT: the weights' names are the interface between stages.
 *
 * A stage ends by saving a state dict (parameter name → tensor, MiniMind's names) and the next
 * stage starts by loading it into a freshly built model, matched name by name, as PyTorch's
 * `load_state_dict` does. Read lessons/17-pretrain-to-sft.md first; every function cites the
 * MiniMind lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-17`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-17", "loadStateDict");
}
