import { skipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "skipBatches", mistake: "skip samples were dropped instead of skip batches: the saved step counts batches" };
export const skipBatches = skipVariant({ samplesNotBatches: true });
