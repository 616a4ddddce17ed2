import type { MutantInfo } from "../../engine/types.js";
import { tableVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "the YaRN ramp is the wrong way round: the fast dimensions (ramp 0) were divided by the factor and the slow ones (ramp 1) kept their frequency; it is f·((1 − γ) + γ/factor)" };
export const ropeFrequencies = tableVariant({ rampFlipped: true });
