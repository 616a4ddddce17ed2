import type { MutantInfo } from "../../engine/types.js";
import { distillVariant } from "./_distill.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "the reverse-KL penalty is log π_θ − log π_teacher: minimising it pulls the student down where it is more confident than the teacher",
};
export const distillLoss = distillVariant({ penaltySignFlipped: true });
