import type { MutantInfo } from "../../engine/types.js";
import { rewardVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentReward",
  mistake: "an unfinished rollout (still calling tools at the last turn) has no final answer: its final text is empty, so it gets no ground-truth credit",
};
export const agentReward = rewardVariant({ unfinishedKeepsText: true });
