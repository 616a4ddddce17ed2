import { attentionVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "the QK-norm's ε defaulted to 1e-5 when opts.eps is left out; the default is 1e-6" };
export const attention = attentionVariant({ epsDefault: 1e-5 });
