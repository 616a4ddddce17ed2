import type { MutantInfo } from "../../engine/types.js";
import { clipVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "clipFraction",
  mistake: "the window is on ρ itself, |ρ − 1| > ε, not on log ρ",
};
export const clipFraction = clipVariant({ logSpace: true });
