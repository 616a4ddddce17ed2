import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "a parameter's size was the sum of its dimensions; it is their product (and 1 for a scalar)" };
export const trainableParams = trainableParamsVariant({ sumOfDims: true });
