import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "B·A went through plain numbers (dataSync): the merged weight is right but the course's LoRA model trains through it, and no gradient reaches A or B" };
export const mergeLora = mergeLoraVariant({ detached: true });
