import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "the logits at position p score the token at p + 1: use the nKeep positions before the last one (logits[:, -(nKeep+1):-1]), not the last nKeep",
};
export const perTokenLogps = logpVariant({ noShift: true });
