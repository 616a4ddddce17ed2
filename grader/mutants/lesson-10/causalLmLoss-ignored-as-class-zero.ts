import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "ignored labels were scored as token 0; positions whose label is ignoreIndex must add nothing and not be counted" };
export const causalLmLoss = lossVariant({ ignoredAsClassZero: true });
