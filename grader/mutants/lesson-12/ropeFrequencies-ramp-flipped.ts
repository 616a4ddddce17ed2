import type { MutantInfo } from "../../engine/types.js";
import { tableVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the YaRN ramp is the wrong way round: slow dimensions (ramp 1) are divided by the factor, fast ones (ramp 0) keep their frequency: f·((1 − γ) + γ/factor)" };
export const ropeFrequencies = tableVariant({ rampFlipped: true });
