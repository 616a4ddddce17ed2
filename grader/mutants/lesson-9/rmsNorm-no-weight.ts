import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "the learned gain w was not applied: multiply the normalised x by weight" };
export const rmsNorm = rmsNormVariant({ noWeight: true });
