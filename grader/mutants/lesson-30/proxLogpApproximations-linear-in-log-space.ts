import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "linear mixed the log-probabilities; it mixes probabilities, (1 − α)·e^old + α·e^logprobs, then takes the log" };
export const proxLogpApproximations = approxVariant({ linearInLogSpace: true });
