import type { MutantInfo } from "../../engine/types.js";
import { distillVariant } from "./_distill.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "in pure KD the reward log π_teacher − log π_θ is a fixed per-token reward: detach it, so the gradient flows through the importance weight alone",
};
export const distillLoss = distillVariant({ rewardNotDetached: true });
