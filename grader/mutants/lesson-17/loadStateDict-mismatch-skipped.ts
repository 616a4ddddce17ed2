import type { MutantInfo } from "../../engine/types.js";
import { loadStateDictVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "loadStateDict", mistake: "a parameter whose shape differs was skipped; PyTorch raises a size-mismatch error for it even when strict is false, naming the tensor" };
export const loadStateDict = loadStateDictVariant({ mismatchSkipped: true });
