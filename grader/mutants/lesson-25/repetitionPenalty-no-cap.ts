import type { MutantInfo } from "../../engine/types.js";
import { penaltyVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "repetitionPenalty",
  mistake: "the penalty is capped: min(cap, (G − U)·cap·2/G)",
};
export const repetitionPenalty = penaltyVariant({ noCap: true });
