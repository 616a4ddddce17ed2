import { tableVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the base defaulted to 1e4 when it is left out; MiniMind's rope_theta default is 1e6" };
export const ropeFrequencies = tableVariant({ baseDefault: 1e4 });
