import type { MutantInfo } from "../../engine/types.js";
import { clipVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "clipFraction",
  mistake: "the window was tested as ρ > 1 + ε or ρ < 1 − ε: equal in exact arithmetic, but in float32 a ratio of 1.2 is 1.20000005, whose distance |ρ − 1| exceeds ε = 0.2; compare the float32 distance |ρ − 1| with ε, as MiniMind does",
};
export const clipFraction = clipVariant({ windowBounds: true });
