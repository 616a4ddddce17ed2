import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = {
  exercise: "decoupledPpoLoss",
  mistake: "rejection sampling kept only weights strictly below `upper`, so a token whose behaviour weight is exactly at the bound was rejected; AReaL keeps w ≤ upper",
};
export const decoupledPpoLoss = lossVariant({ rejectStrictUpper: true });
