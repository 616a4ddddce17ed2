import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "stalenessStats", mistake: "avg was divided by every masked-in token; divide by the tokens actually counted (mask and version ≥ 0)" };
export const stalenessStats = stalenessVariant({ meanOverMask: true });
