import { valueVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clippedValueLoss", mistake: "min of the two squared errors lets the clipped term hide a large error; take the max" };
export const clippedValueLoss = valueVariant({ minInsteadOfMax: true });
