import type { MutantInfo } from "../../engine/types.js";
import { logpVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "perTokenLogps",
  mistake: "a temperature divides the logits (T > 1 flattens the distribution, T < 1 sharpens it); multiplying does the opposite",
};
export const perTokenLogps = logpVariant({ temperature: "multiplied" });
