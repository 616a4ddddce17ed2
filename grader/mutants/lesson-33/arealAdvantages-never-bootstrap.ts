import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "a truncated row (no EOS) bootstraps from V[T − 1]: its answer did not end, so the value after it is not 0" };
export const arealAdvantages = advantageVariant({ neverBootstrap: true });
