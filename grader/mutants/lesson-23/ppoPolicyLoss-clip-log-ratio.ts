import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ppoPolicyLoss", mistake: "the log-ratio was clipped to [−ε, ε]; PPO clips the ratio itself to [1 − ε, 1 + ε]" };
export const ppoPolicyLoss = policyVariant({ clipLogRatio: true });
