import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "eps went inside the square root, √(σ² + eps); MiniMind divides by σ + eps" };
export const groupRelativeAdvantages = advantagesVariant("eps-inside-sqrt");
