import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "a dense config returned experts: 0; without MoE the contract leaves the experts key out" };
export const countParams = countVariant({ expertsZeroWhenDense: true });
