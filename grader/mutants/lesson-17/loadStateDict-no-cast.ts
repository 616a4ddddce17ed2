import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "the loaded tensors keep the checkpoint's dtype (MiniMind saves float16): cast them to float32, the model's dtype" };
export const loadStateDict = loadStateDictVariant({ noCast: true });
