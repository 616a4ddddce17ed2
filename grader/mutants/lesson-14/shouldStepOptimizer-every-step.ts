import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldStepOptimizer", mistake: "the optimiser steps after every micro-batch from step K on: it must wait for each full group of K" };
export const shouldStepOptimizer = (step: number, k: number): boolean => step >= k;
