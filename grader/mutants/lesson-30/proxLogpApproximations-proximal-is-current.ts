import { approxVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "proxLogpApproximations", mistake: "the proximal version was taken as currentVersion; AReaL assumes π_prox is one version behind: v_prox = currentVersion − 1" };
export const proxLogpApproximations = approxVariant({ proximalIsCurrent: true });
