import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldFlushTail", mistake: "every epoch ends with a flush: when the last step completed a group, the optimiser already stepped" };
export const shouldFlushTail = (lastStep: number, startStep: number): boolean => lastStep > startStep;
