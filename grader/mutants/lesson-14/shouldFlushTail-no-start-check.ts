import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldFlushTail", mistake: "an epoch that ran no micro-batch (last step = start step) was flushed: there is nothing waiting then" };
export const shouldFlushTail = (lastStep: number, _startStep: number, k: number): boolean => lastStep % k !== 0;
