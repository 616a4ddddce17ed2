import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "tool responses are the environment's words, not the model's: their mask is 0",
};
export const agentLossMask = packVariant({ observationTrained: true });
