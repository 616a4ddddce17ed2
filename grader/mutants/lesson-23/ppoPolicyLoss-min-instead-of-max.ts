import { policyVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ppoPolicyLoss", mistake: "min of the negated objectives takes the optimistic bound; PPO takes max(−A·ρ, −A·clip(ρ)) so the update is pessimistic" };
export const ppoPolicyLoss = policyVariant({ minInsteadOfMax: true });
