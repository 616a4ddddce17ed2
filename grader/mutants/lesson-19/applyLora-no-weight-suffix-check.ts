import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "a square 2-D tensor whose name does not end in \".weight\" (a buffer such as `…rotary.freqs`) got an adapter: only modules' weights are linear layers" };
export const applyLora = applyLoraVariant({ noWeightSuffixCheck: true });
