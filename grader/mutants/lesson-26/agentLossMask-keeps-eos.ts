import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "generated pad and EOS ids are dropped from each turn (with their log-probs) before packing",
};
export const agentLossMask = packVariant({ keepEos: true });
