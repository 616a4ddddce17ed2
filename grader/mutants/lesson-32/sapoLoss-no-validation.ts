import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "a temperature ≤ 0 (or an unknown level) must throw an error, not return a loss" };
export const sapoLoss = sapoVariant({ noValidation: true });
