import { skipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "skipBatches", mistake: "the short last batch was kept although fewer full batches than skip were there to skip" };
export const skipBatches = skipVariant({ tailAlways: true });
