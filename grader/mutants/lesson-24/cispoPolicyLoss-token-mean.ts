import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "cispoPolicyLoss", mistake: "all counted tokens were averaged together; MiniMind averages within each sequence first, then over sequences" };
export const cispoPolicyLoss = cispoVariant({ tokenMean: true });
