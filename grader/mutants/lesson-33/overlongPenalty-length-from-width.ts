import type { MutantInfo } from "../../engine/types.js";
import { overlongVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "overlongPenalty", mistake: "the response length is the row's count of loss-mask tokens, not the padded width" };
export const overlongPenalty = overlongVariant({ lengthFromWidth: true });
