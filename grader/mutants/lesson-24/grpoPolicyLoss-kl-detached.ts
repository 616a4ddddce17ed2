import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "grpoPolicyLoss",
  mistake: "the KL term was detached, as if it were a reward: the value is right, but β·KL must pull the policy back towards the reference through its gradient",
};
export const grpoPolicyLoss = grpoVariant({ klDetached: true });
