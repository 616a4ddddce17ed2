import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "the mean and std were taken over the whole batch; GRPO compares each answer only with the other answers to the same prompt" };
export const groupRelativeAdvantages = advantagesVariant("batch-statistics");
