import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "only names matching `lora.A.weight` / `lora.B.weight` train, so another adapter parameter (`…lora.scaling`) stays frozen: every name containing \"lora\" trains" };
export const trainableParams = trainableParamsVariant({ abWeightsOnly: true });
