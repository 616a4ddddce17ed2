import { stalenessVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "stalenessStats", mistake: "zeros were returned when no token counts; return null (AReaL logs nothing rather than a misleading 0)" };
export const stalenessStats = stalenessVariant({ zerosWhenEmpty: true });
