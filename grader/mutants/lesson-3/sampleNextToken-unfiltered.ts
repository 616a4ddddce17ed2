import { sampleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "sampleNextToken", mistake: "the draw ignored the penalty, top-k and top-p; sample from filteredProbabilities(logits, opts)" };
export const sampleNextToken = sampleVariant({ unfiltered: true });
