import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "a missing parameter was set to zeros; it keeps the value the freshly built model gave it" };
export const loadStateDict = loadStateDictVariant({ missingZeroed: true });
