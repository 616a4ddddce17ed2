import type { MutantInfo } from "../../engine/types.js";
import { packVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "agentLossMask",
  mistake: "bad inputs were packed anyway: throw when maxTotalLen < 2, when the prompt is empty, or when a turn's ids and logps differ in length",
};
export const agentLossMask = packVariant({ noInputChecks: true });
