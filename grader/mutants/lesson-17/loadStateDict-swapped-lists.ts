import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "missing and unexpected are swapped: missing = the model's names the checkpoint lacks, unexpected = the checkpoint's names the model lacks" };
export const loadStateDict = loadStateDictVariant({ swappedLists: true });
