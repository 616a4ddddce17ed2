import type { MutantInfo } from "../../engine/types.js";
import { normalizeVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "normalize",
  mistake: "the squared deviations were expanded as Σx² − 2μΣx + nμ² with the three sums kept in float32, which cancels catastrophically for values far from 0 (rewards around 1000 lose their spread): subtract the mean first, then square, in float64",
};
export const normalize = normalizeVariant({ varianceShortcut: true });
