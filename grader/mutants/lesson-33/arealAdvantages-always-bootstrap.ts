import type { MutantInfo } from "../../engine/types.js";
import { advantageVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "arealAdvantages", mistake: "only rows without EOS (seqlen == T) bootstrap from V[T − 1]; finished rows start from 0" };
export const arealAdvantages = advantageVariant({ alwaysBootstrap: true });
