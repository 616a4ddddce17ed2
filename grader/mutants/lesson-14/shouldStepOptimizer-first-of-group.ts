import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldStepOptimizer", mistake: "the optimiser steps on the first micro-batch of each group, before the other K − 1 gradients are in" };
export const shouldStepOptimizer = (step: number, k: number): boolean => (step - 1) % k === 0;
