import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "the frozen parameters were listed; the trainable ones are the adapters" };
export const trainableParams = trainableParamsVariant({ invert: true });
