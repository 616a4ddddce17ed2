import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "`weights` follows the checkpoint's order: list the model's parameters in the model's order, whatever order the checkpoint was written in" };
export const loadStateDict = loadStateDictVariant({ stateDictOrder: true });
