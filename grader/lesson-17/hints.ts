/** Hints for lesson 17 (from pretrain to SFT): one nudge, one key idea and one formula. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-17",
  functions: {
    loadStateDict: {
      nudge:
        "Two dictionaries meet: the model's parameters and the checkpoint's tensors. Which names are in both, only in the model, only in the checkpoint? " +
        "And what does PyTorch do with a name in both whose shape differs?",
      keyIdea:
        "missing = model names not in the checkpoint (model order); unexpected = checkpoint names not in the model (checkpoint order). " +
        "First, any shared name with a different shape is an error naming it, strict or not. Then, if strict and either list is non-empty, an error naming them. " +
        "Otherwise every model parameter takes the checkpoint's tensor when there is one and keeps its own value when not. Names match exactly: no prefix is stripped.",
      formula:
        "for n in model: if n in sd and shape(sd[n]) ≠ shape(model[n]): throw 'size mismatch for n'. if strict and (missing or unexpected): throw. " +
        "weights[n] = n in sd ? cast(sd[n], float32) : clone(model[n]). MiniMind: init_model, trainer/trainer_utils.py:119-127 @ d65ef2c (load_state_dict(weights, strict=False)).",
    },
  },
};

export default hints;
