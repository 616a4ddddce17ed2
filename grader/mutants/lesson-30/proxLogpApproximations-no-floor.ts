import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "linear took the log without the + 1e-10, so a mix of near-zero probabilities runs off to huge negative values" };
export const proxLogpApproximations = approxVariant({ noFloor: true });
