import type { MutantInfo } from "../../engine/types.js";
import { repeatKvVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "repeatKv", mistake: "the copies are made along the positions (axis 1) and then reshaped into heads, which mixes positions into heads" };
export const repeatKv = repeatKvVariant("sequenceAxis");
