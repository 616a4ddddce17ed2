/**
 * Lesson 13's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { ffnVariant, moeVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "feedForward",
    name: "no-up-branch",
    mistake: "the up branch is missing: SwiGLU multiplies silu(gate(x)) by up(x) before down",
    fn: ffnVariant({ noUp: true }),
  },
  {
    exercise: "feedForward",
    name: "relu",
    mistake: "ReLU was used; MiniMind's hidden_act is silu: z·σ(z)",
    fn: ffnVariant({ relu: true }),
  },
  {
    exercise: "feedForward",
    name: "sigmoid-gate",
    mistake: "the gate used σ(z); SiLU is z·σ(z), so multiply by the gate's input as well",
    fn: ffnVariant({ sigmoidGate: true }),
  },
  {
    exercise: "feedForward",
    name: "silu-as-division",
    mistake: "silu was written as z / (1 + exp(−z)): right values, but exp(−z) overflows to Infinity for a pre-activation below ≈ −88 and the gradient there is NaN; use z·sigmoid(z)",
    fn: ffnVariant({ siluAsDivision: true }),
  },
  {
    exercise: "feedForward",
    name: "silu-on-up",
    mistake: "SiLU went on the up branch; it goes on the gate branch: down(silu(gate(x)) ⊙ up(x))",
    fn: ffnVariant({ siluOnUp: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "always-renormalise",
    mistake: "the top-k weights were renormalised although normTopkProb is false; rescale only when it is true",
    fn: moeVariant({ alwaysRenormalise: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "aux-in-eval",
    mistake: "the aux loss was computed outside training; it is 0 unless training is true and α > 0",
    fn: moeVariant({ auxInEval: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "aux-without-num-experts",
    mistake: "the aux loss misses the factor E (numExperts): aux = α · E · Σ_e f_e · P̄_e",
    fn: moeVariant({ auxWithoutNumExperts: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "load-per-slot",
    mistake: "f_e was divided by k; MiniMind's load is the mean over tokens of the one-hot choices summed over the k slots, so Σ_e f_e = k",
    fn: moeVariant({ loadPerSlot: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "no-routing-weight",
    mistake: "each chosen expert's output was added with weight 1; multiply it by its routing weight (the gate probability, renormalised only if normTopkProb)",
    fn: moeVariant({ noRoutingWeight: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "router-softmax-without-max",
    mistake: "the router's softmax was exp(l)/Σexp(l) without subtracting the max: a routing logit above ≈ 88 overflows float32 and gives NaN; use tf.softmax",
    fn: moeVariant({ naiveRouterSoftmax: true }),
  },
  {
    exercise: "moeFeedForward",
    name: "softmax-after-topk",
    mistake: "the softmax ran over the k chosen logits only; take it over all E experts first, then pick the top k probabilities",
    fn: moeVariant({ softmaxAfterTopk: true }),
  },
];
