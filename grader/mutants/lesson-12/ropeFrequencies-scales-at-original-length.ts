import { tableVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the frequencies were rescaled when end equals originalMaxPositionEmbeddings; MiniMind rescales only when end / original > 1" };
export const ropeFrequencies = tableVariant({ scaleAtOriginalLength: true });
