import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "the strict key check runs before the shape check, so a checkpoint with both problems is reported by its missing keys only: check shapes first, strict or not" };
export const loadStateDict = loadStateDictVariant({ strictBeforeShapes: true });
