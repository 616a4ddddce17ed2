import type { MutantInfo } from "../../engine/types.js";
import { advantagesVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "groupRelativeAdvantages", mistake: "groups were taken with a stride (rows i, i + N, …); a prompt's G answers are consecutive, so reshape to [N, G]" };
export const groupRelativeAdvantages = advantagesVariant("strided-groups");
