import type { MutantInfo } from "../../engine/types.js";
import { generateVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "generate", mistake: "a row that already produced EOS keeps generating; it must get EOS again at every later step" };
export const generate = generateVariant({ noEosFill: true });
