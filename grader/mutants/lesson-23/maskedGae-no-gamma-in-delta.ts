import type { MutantInfo } from "../../engine/types.js";
import { gaeVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "maskedGae", mistake: "δ_t = r_t + V_{t+1} − V_t forgets to discount the bootstrap value by γ" };
export const maskedGae = gaeVariant({ noGammaInDelta: true });
