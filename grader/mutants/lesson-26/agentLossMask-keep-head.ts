import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "a sequence over maxTotalLen keeps its last tokens (the answer), not its first",
};
export const agentLossMask = packVariant({ keepHead: true });
