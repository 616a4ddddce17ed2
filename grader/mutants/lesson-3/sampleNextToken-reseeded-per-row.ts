import { sampleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "sampleNextToken", mistake: "every row used a fresh Rng(seed), so identical rows always draw the same token; create one Rng per call and take one number per row" };
export const sampleNextToken = sampleVariant({ reseedPerRow: true });
