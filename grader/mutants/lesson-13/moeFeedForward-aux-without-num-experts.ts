import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "the aux loss misses the factor E (numExperts): aux = α · E · Σ_e f_e · P̄_e" };
export const moeFeedForward = moeVariant({ auxWithoutNumExperts: true });
