import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "the token embedding got an adapter; it is a lookup table (nn.Embedding), not a linear layer, even when it is square" };
export const applyLora = applyLoraVariant({ embeddingToo: true });
