import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "`weights` was built from the checkpoint, so it holds the checkpoint's unexpected entries (a `module.…` name) and follows its order: return exactly the model's parameters, in the model's order" };
export const loadStateDict = loadStateDictVariant({ stateDictEntries: true });
