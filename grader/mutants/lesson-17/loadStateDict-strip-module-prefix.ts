import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "\"module.\" was stripped from the checkpoint's names; load_state_dict matches names exactly, which is why MiniMind saves the unwrapped model (raw_model) in the first place" };
export const loadStateDict = loadStateDictVariant({ stripModulePrefix: true });
