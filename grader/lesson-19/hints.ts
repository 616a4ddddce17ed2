/** Hints for lesson 19 (LoRA training): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-19",
  functions: {
    applyLora: {
      nudge:
        "Which of the model's weights belong to linear layers, and which of those does MiniMind adapt? " +
        "Look at the weights' shapes: MiniMind's test is on in_features and out_features. Then: which factor starts at zero so that the model is unchanged at step 0?",
      keyIdea:
        "Walk the weights in order. Skip anything that is not a 2-D \"….weight\", and skip the token embedding (a lookup table, not a linear layer). " +
        "Keep only square weights [n, n]. For each, the module name is the weight's name without \".weight\"; add \"<module>.lora.A.weight\" = initA(name, [r, in]) and then \"<module>.lora.B.weight\" = zeros [out, r].",
      formula:
        "for (name, W [out, in]) in weights: if name ends in \".weight\" and W is 2-D and name ≠ \"model.embed_tokens.weight\" and out == in: " +
        "A = initA(\"<module>.lora.A.weight\", [r, in]); B = a zero matrix of shape [out, r]. MiniMind: apply_lora, model/model_lora.py:21-25 and the LoRA init at 6-15 @ d65ef2c.",
    },
    trainableParams: {
      nudge: "MiniMind decides what trains by looking at each parameter's name. What do all adapter names share?",
      keyIdea:
        "A parameter trains exactly when its name contains \"lora\". Its size is the product of its shape's dimensions (1 for a scalar, shape []). " +
        "The total counts every parameter given, adapters included, since MiniMind counts after apply_lora.",
      formula:
        "trainable = [n for n in shapes if \"lora\" in n]; trainableCount = Σ_{n ∈ trainable} Π shapes[n]; totalCount = Σ_n Π shapes[n]. " +
        "MiniMind: trainer/train_lora.py:132-146 @ d65ef2c.",
    },
  },
};

export default hints;
