import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "clipMask used ≤, so every token whose two terms tie (no clipping at all) was counted as clipped; use −A·r < −A·clip(r)" };
export const decoupledPpoLoss = lossVariant({ clipMaskNonStrict: true });
