import type { MutantInfo } from "../../engine/types.js";
import { mergeLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "mergeLora", mistake: "ΔW was built as Aᵀ·Bᵀ ([in, out]); the update of a weight [out, in] is B·A" };
export const mergeLora = mergeLoraVariant({ transposedDelta: true });
