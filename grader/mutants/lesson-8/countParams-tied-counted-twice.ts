import { countVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "countParams", mistake: "lm_head was counted on top of the embedding; with tieWordEmbeddings they are one matrix, counted once" };
export const countParams = countVariant({ tiedCountedTwice: true });
