import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the scored positions were taken as one run per row (from the first counted target, as many as are counted): a hole of ignored labels between two spans is scored; mask each position by its own label" };
export const causalLmLoss = lossVariant({ contiguousSpan: true });
