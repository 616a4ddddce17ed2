import type { MutantInfo } from "../../engine/types.js";
import { grpoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "grpoPolicyLoss", mistake: "the KL term has the wrong sign: the loss is −(surrogate − β·kl), so the penalty adds to the loss" };
export const grpoPolicyLoss = grpoVariant({ klSign: true });
