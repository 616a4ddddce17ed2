import type { MutantInfo } from "../../engine/types.js";
import { dpoLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "dpoLoss", mistake: "pairs were read as neighbouring rows (2i, 2i + 1); MiniMind stacks [chosen; rejected], so pair i is row i and row i + B/2" };
export const dpoLoss = dpoLossVariant({ interleavedPairs: true });
