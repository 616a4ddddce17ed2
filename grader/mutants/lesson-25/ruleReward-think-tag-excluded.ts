import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "ruleReward",
  mistake: "the thinking length left out the <think> tag: MiniMind measures everything before the first </think> (split('</think>', 1)[0], stripped), the opening tag's 7 characters included",
};
export const ruleReward = rewardVariant({ thinkTagExcluded: true });
