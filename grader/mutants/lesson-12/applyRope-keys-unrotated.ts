import type { MutantInfo } from "../../engine/types.js";
import { rotationVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyRope", mistake: "only the queries are rotated: the keys need the same rotation, or q·k no longer depends on the distance between positions" };
export const applyRope = rotationVariant("keysUnrotated");
