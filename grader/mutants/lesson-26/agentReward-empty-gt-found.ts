import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "an empty ground-truth item counted as found (\"\" is in every text); MiniMind's check needs a non-empty stripped item ((s := str(g).strip()) and …)",
};
export const agentReward = rewardVariant({ emptyGtFound: true });
