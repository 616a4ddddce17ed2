import type { MutantInfo } from "../../engine/types.js";
import { sourcesVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "resolveLogps",
  mistake: "loglinear approximates only when no recomputed proximal policy is there; a ground truth that exists is used as is",
};
export const resolveLogps = sourcesVariant({ loglinearOverridesRecomputed: true });
