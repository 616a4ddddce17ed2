import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "α weighted the distillation term; MiniMind's loss is α·CE + (1 − α)·distill" };
export const distillationLoss = distillationLossVariant({ swappedAlpha: true });
