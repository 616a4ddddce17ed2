import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "the strict error lists only the missing keys: name the unexpected ones as well, as load_state_dict does" };
export const loadStateDict = loadStateDictVariant({ strictNamesMissingOnly: true });
