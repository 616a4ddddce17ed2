import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "rejectionSampling",
  mistake: "the config was read without a default, so rejectionSampling(p, o, m) with no config threw; an omitted config means every RejectionSamplingConfig default",
};
export const rejectionSampling = rejectionVariant({ configRequired: true });
