import { valueVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clippedValueLoss", mistake: "the factor 0.5 in front of the value loss is missing" };
export const clippedValueLoss = valueVariant({ noHalf: true });
