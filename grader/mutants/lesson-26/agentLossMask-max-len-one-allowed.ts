import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "maxTotalLen = 1 was accepted: a row needs at least two ids (one log-prob to train on), so anything below 2 must throw",
};
export const agentLossMask = packVariant({ maxLenOneAllowed: true });
