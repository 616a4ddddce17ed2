import type { MutantInfo } from "../../engine/types.js";
import { pretrainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "pretrainSample", mistake: "forgets the eos token" };
export const pretrainSample = pretrainVariant("no-eos");
