import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "shouldFlushTail", mistake: "groups were counted from the resume point; they are counted from step 1 (step mod K), as the stepping rule does" };
export const shouldFlushTail = (lastStep: number, startStep: number, k: number): boolean => lastStep > startStep && (lastStep - startStep) % k !== 0;
