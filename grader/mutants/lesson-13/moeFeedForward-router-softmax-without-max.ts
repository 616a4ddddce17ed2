import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "the router's softmax was exp(l)/Σexp(l) without subtracting the max: a routing logit above ≈ 88 overflows float32 and gives NaN; use tf.softmax" };
export const moeFeedForward = moeVariant({ naiveRouterSoftmax: true });
