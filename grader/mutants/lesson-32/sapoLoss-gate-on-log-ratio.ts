import type { MutantInfo } from "../../engine/types.js";
import { sapoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sapoLoss", mistake: "the gate is σ(τ·log r); AReaL gates on r − 1, which differs once r moves away from 1" };
export const sapoLoss = sapoVariant({ gateOnLogRatio: true });
