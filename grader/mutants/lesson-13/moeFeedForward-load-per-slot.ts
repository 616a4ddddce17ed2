import { moeVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "moeFeedForward", mistake: "f_e was divided by k; MiniMind's load is the mean over tokens of the one-hot choices summed over the k slots, so Σ_e f_e = k" };
export const moeFeedForward = moeVariant({ loadPerSlot: true });
