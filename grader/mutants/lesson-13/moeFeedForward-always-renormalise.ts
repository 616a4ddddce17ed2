import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "the top-k weights were renormalised although normTopkProb is false; rescale only when it is true" };
export const moeFeedForward = moeVariant({ alwaysRenormalise: true });
