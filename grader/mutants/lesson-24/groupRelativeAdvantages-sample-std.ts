import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "the standard deviation divides by G − 1 (sample std); MiniMind uses std(unbiased=False), which divides by G" };
export const groupRelativeAdvantages = advantagesVariant("sample-std");
