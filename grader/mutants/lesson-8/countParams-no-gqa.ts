import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "k_proj and v_proj were sized for numAttentionHeads; they have numKeyValueHeads·headDim outputs (GQA)" };
export const countParams = countVariant({ noGqa: true });
