import type { MutantInfo } from "../../engine/types.js";
import { rejectionVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "rejectionSampling",
  mistake: "the bounds were checked in float64 (on dataSync values) against the decimal bounds, so a metric that equals the bound in float32 (0.1 stored as 0.100000001) fell outside it; compare in float32 as tensors do, as PyTorch does",
};
export const rejectionSampling = rejectionVariant({ boundsInFloat64: true });
