import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "promptLen is where the first trained token is after the cut, not the prompt's own length",
};
export const agentLossMask = packVariant({ promptLenFromPrompt: true });
