import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoPolicyLoss", mistake: "all counted tokens were averaged together; MiniMind averages within each sequence first, then over sequences" };
export const grpoPolicyLoss = grpoVariant({ tokenMean: true });
