import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "each chosen expert's output was added with weight 1; multiply it by its routing weight (the gate probability, renormalised only if normTopkProb)" };
export const moeFeedForward = moeVariant({ noRoutingWeight: true });
