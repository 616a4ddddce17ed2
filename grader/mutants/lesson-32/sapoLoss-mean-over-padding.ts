import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "the loss divides by every position, padding included: divide by the count of masked-in tokens (at least 1)" };
export const sapoLoss = sapoVariant({ meanOverPadding: true });
