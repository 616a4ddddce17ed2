import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "approxKl",
  mistake: "the approximate KL is ½·(log ρ)²: the ½ is part of the second-order estimate",
};
export const approxKl = klVariant({ noHalf: true });
