import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "pads with the eos id instead of the pad id" };
export const sftSample = sampleVariant("pads-with-eos");
