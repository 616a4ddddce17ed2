import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "strict was ignored; with strict = true, any missing or unexpected key is an error that names them" };
export const loadStateDict = loadStateDictVariant({ strictIgnored: true });
