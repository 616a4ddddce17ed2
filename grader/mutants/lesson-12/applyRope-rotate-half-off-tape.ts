import { rotationVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "applyRope", mistake: "rotate_half was built from the numbers (dataSync) as a new tensor: the values are right but no gradient flows through it; build it with tensor ops (split, neg, concat)" };
export const applyRope = rotationVariant("rotateHalfOffTape");
