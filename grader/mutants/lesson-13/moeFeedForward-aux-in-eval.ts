import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "the aux loss was computed outside training; it is 0 unless training is true and α > 0" };
export const moeFeedForward = moeVariant({ auxInEval: true });
