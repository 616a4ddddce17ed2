import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "the ground truth also matches as a number: commas are removed and numbers compared within 1e-6 (3,402 is 3402)",
};
export const agentReward = rewardVariant({ textMatchOnly: true });
