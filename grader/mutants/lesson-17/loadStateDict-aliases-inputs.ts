import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "the result holds the input tensors themselves: return new tensors (tf.clone, tf.cast), so that disposing the checkpoint or the old model does not free the new weights" };
export const loadStateDict = loadStateDictVariant({ aliasesInputs: true });
