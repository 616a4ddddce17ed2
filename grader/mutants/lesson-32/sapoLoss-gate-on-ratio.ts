import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "the gate is σ(τ·r); it must be centred at r = 1: σ(τ·(r − 1))" };
export const sapoLoss = sapoVariant({ gateOnRatio: true });
