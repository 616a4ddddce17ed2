import { generateVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "opts.pickToken was ignored (always greedy); call it on the last logits when it is given" };
export const generate = generateVariant({ ignoresPickToken: true });
