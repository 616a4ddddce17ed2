import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "approxKl",
  mistake: "clamp the mask's sum to at least 1: a minibatch with nothing kept must give 0, not NaN",
};
export const approxKl = klVariant({ denominator: "unclamped" });
