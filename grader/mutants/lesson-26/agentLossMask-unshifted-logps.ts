import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "oldLogps has one entry per next-token prediction (length − 1): the prompt contributes one zero fewer than its length",
};
export const agentLossMask = packVariant({ unshiftedLogps: true });
