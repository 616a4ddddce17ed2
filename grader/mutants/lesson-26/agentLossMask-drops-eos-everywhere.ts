import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "pad and EOS ids were dropped from the prompt and the observations too; only the ids the model generated are filtered (a prompt or a tool response may hold the EOS id, e.g. an earlier turn's end)",
};
export const agentLossMask = packVariant({ dropEosEverywhere: true });
