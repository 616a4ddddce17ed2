import { tableVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the ramp divided by high − low without MiniMind's max(high − low, 0.001): when high = low (a tiny head_dim) it is 0/0 = NaN" };
export const ropeFrequencies = tableVariant({ rampUnguarded: true });
