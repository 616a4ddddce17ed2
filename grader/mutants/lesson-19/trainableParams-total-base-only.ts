import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "the total left out the adapters; MiniMind counts every parameter of the model with its adapters injected" };
export const trainableParams = trainableParamsVariant({ totalBaseOnly: true });
