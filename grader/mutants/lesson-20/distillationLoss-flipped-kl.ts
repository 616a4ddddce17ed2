import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "the KL was taken the other way round, KL(student ‖ teacher); MiniMind's F.kl_div(log q, p) is Σ p·(log p − log q) with p the teacher" };
export const distillationLoss = distillationLossVariant({ flippedKl: true });
