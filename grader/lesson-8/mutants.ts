/**
 * Lesson 8's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { countVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "countParams",
    name: "all-experts-active",
    mistake: "active counted every expert; a token uses only numExpertsPerTok of them: subtract L·(E − k)·3·H·I_e",
    fn: countVariant({ allExpertsActive: true }),
  },
  {
    exercise: "countParams",
    name: "experts-use-dense-width",
    mistake: "every expert was counted at intermediateSize; MoE experts are moeIntermediateSize wide",
    fn: countVariant({ expertsUseDenseWidth: true }),
  },
  {
    exercise: "countParams",
    name: "experts-zero-when-dense",
    mistake: "a dense config returned experts: 0; without MoE the contract leaves the experts key out",
    fn: countVariant({ expertsZeroWhenDense: true }),
  },
  {
    exercise: "countParams",
    name: "head-dim-from-hidden",
    mistake: "headDim was recomputed as hiddenSize / numAttentionHeads; read config.headDim (it may be set explicitly)",
    fn: countVariant({ headDimFromHidden: true }),
  },
  {
    exercise: "countParams",
    name: "no-final-norm",
    mistake: "the final RMSNorm after the last block (H weights) is missing from norms",
    fn: countVariant({ noFinalNorm: true }),
  },
  {
    exercise: "countParams",
    name: "no-gqa",
    mistake: "k_proj and v_proj were sized for numAttentionHeads; they have numKeyValueHeads·headDim outputs (GQA)",
    fn: countVariant({ noGqa: true }),
  },
  {
    exercise: "countParams",
    name: "no-qk-norm",
    mistake: "the q_norm and k_norm gains (headDim each, in every layer) are missing from norms",
    fn: countVariant({ noQkNorm: true }),
  },
  {
    exercise: "countParams",
    name: "no-router",
    mistake: "the router (gate, E·H per MoE layer) is missing from feedForward",
    fn: countVariant({ noRouter: true }),
  },
  {
    exercise: "countParams",
    name: "tied-counted-twice",
    mistake: "lm_head was counted on top of the embedding; with tieWordEmbeddings they are one matrix, counted once",
    fn: countVariant({ tiedCountedTwice: true }),
  },
  {
    exercise: "countParams",
    name: "two-matrix-mlp",
    mistake: "the MLP was counted with two matrices; SwiGLU has three: gate, up and down, 3·H·I",
    fn: countVariant({ twoMatrixMlp: true }),
  },
];
