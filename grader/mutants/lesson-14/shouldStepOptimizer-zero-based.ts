import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldStepOptimizer", mistake: "steps were treated as counted from 0 ((step + 1) mod K): MiniMind counts micro-batches from 1" };
export const shouldStepOptimizer = (step: number, k: number): boolean => (step + 1) % k === 0;
