import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "prompt tokens (version −1) were interpolated; they have no generation version, so α must be 0 there (versions ≥ 0 only)" };
export const proxLogpApproximations = approxVariant({ promptTokensInterpolated: true });
