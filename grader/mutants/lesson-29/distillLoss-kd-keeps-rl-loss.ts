import type { MutantInfo } from "../../engine/types.js";
import { distillVariant } from "./_distill.js";

export const mutant: MutantInfo = {
  exercise: "distillLoss",
  mistake: "with rl_loss_weight = 0 the RL loss is replaced, not added: pure KD is the distillation term alone",
};
export const distillLoss = distillVariant({ kdKeepsRlLoss: true });
