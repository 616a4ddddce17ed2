import type { MutantInfo } from "../../engine/types.js";
import { overlongVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "overlongPenalty", mistake: "short responses earned a bonus: the penalty is min(…, 0), never positive" };
export const overlongPenalty = overlongVariant({ noCap: true });
