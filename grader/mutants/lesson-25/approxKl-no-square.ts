import type { MutantInfo } from "../../engine/types.js";
import { klVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "approxKl",
  mistake: "square the log-ratio: its plain mean (k1) can be negative or cancel out, and the early stop would never fire",
};
export const approxKl = klVariant({ noSquare: true });
