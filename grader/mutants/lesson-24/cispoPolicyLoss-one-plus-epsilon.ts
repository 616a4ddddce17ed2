import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "cispoPolicyLoss", mistake: "the weight was capped at 1 + ε_high; CISPO caps the ratio itself at ε_high (5 by default), with no lower bound" };
export const cispoPolicyLoss = cispoVariant({ onePlusEpsilon: true });
