import { lrVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "cosineLr", mistake: "π is missing inside the cosine, so the lr barely falls: the angle must run from 0 to π over the run" };
export const cosineLr = lrVariant({ noPi: true });
