import type { MutantInfo } from "../../engine/types.js";
import { tableVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the exponent is i/D instead of 2i/D: f_i = 1 / base^(2i/D) for i = 0 … D/2 − 1 (torch.arange(0, dim, 2) / dim)" };
export const ropeFrequencies = tableVariant({ exponentWithoutTwo: true });
