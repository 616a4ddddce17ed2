import type { MutantInfo } from "../../engine/types.js";
import { distillationLossVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "distillationLoss", mistake: "every position from the first counted label to the last was counted, so a −100 between two answers (a multi-turn conversation) was learned too: count exactly the positions whose label is not −100" };
export const distillationLoss = distillationLossVariant({ maskAsSpan: true });
