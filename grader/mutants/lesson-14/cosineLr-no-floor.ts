import { lrVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "cosineLr", mistake: "the schedule decays to 0: MiniMind keeps a floor of lr/10, lr·(0.1 + 0.45·(1 + cos))" };
export const cosineLr = lrVariant({ noFloor: true });
