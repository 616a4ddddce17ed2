import { valueVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clippedValueLoss", mistake: "V was clipped to [−c, c]; it must stay within c of the rollout's value, [V_old − c, V_old + c]" };
export const clippedValueLoss = valueVariant({ clipAbsolute: true });
