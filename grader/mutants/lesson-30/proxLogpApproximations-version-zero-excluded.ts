import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "tokens of version 0 were treated like prompt tokens; version 0 is the first policy and its tokens are interpolated (versions ≥ 0, not > 0)" };
export const proxLogpApproximations = approxVariant({ versionZeroExcluded: true });
