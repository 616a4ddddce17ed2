import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "the softmax ran over the k chosen logits only; take it over all E experts first, then pick the top k probabilities" };
export const moeFeedForward = moeVariant({ softmaxAfterTopk: true });
