import type { MutantInfo } from "../../engine/types.js";
import { tableVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the attention factor is applied only when the table goes past the original context; MiniMind applies it whenever rope_scaling is given" };
export const ropeFrequencies = tableVariant({ attentionFactorOnlyWhenScaling: true });
