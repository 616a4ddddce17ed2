import type { MutantInfo } from "../../engine/types.js";
import { rotationVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyRope", mistake: "sin and cos are swapped: x·cos + rotate_half(x)·sin" };
export const applyRope = rotationVariant("sinCosSwapped");
