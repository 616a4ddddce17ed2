import { tableVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "a left-out ropeScaling (undefined) was treated as given: check for null and undefined alike (no scaling)" };
export const ropeFrequencies = tableVariant({ scalingNullCheckOnly: true });
