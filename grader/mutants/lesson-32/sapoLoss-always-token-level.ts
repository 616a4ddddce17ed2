import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "importanceSamplingLevel 'sequence' is ignored: use the sequence-level ratio and mean advantage there" };
export const sapoLoss = sapoVariant({ alwaysTokenLevel: true });
