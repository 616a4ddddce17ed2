import { valueVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clippedValueLoss", mistake: "the value loss was averaged over padding too; divide by the number of masked-in tokens" };
export const clippedValueLoss = valueVariant({ denominator: "all" });
