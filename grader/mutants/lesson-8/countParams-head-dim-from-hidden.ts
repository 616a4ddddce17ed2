import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "headDim was recomputed as hiddenSize / numAttentionHeads; read config.headDim (it may be set explicitly)" };
export const countParams = countVariant({ headDimFromHidden: true });
