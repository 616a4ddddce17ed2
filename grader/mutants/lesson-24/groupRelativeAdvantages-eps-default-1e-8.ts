import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "eps defaults to 1e-8 (lesson 23's normalisation); MiniMind's GRPO adds 1e-4 to the standard deviation" };
export const groupRelativeAdvantages = advantagesVariant("eps-default-1e-8");
