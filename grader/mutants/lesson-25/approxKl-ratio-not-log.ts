import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "approxKl",
  mistake: "the input is already log ρ: square it, not ρ − 1 = exp(log ρ) − 1",
};
export const approxKl = klVariant({ ratioNotLog: true });
