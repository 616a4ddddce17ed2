import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "only the A matrices train; every parameter with \"lora\" in its name trains, A and B" };
export const trainableParams = trainableParamsVariant({ onlyA: true });
