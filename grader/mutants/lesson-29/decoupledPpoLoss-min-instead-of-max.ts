import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "decoupledPpoLoss", mistake: "min of −A·r and −A·clip(r) takes the optimistic bound; PPO keeps the larger (pessimistic) loss" };
export const decoupledPpoLoss = lossVariant({ minInsteadOfMax: true });
