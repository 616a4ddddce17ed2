import { rmsNormVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "rmsNorm", mistake: "ε was not added to the mean square inside the square root: it was left out (x/√mean(x²); a row of zeros then gives 0/0 = NaN) or used as a floor (x/√max(mean(x²), ε)); divide by √(mean(x²) + ε)" };
export const rmsNorm = rmsNormVariant({ noEps: true });
