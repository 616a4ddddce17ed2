import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "the temperatures are swapped: τ_pos gates tokens with A > 0, τ_neg the others" };
export const sapoLoss = sapoVariant({ swappedTemperatures: true });
