import type { MutantInfo } from "../../engine/types.js";
import { rotationVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyRope", mistake: "rotate_half([x₁, x₂]) must be [−x₂, x₁]; [x₂, −x₁] turns every pair the other way" };
export const applyRope = rotationVariant("wrongSign");
