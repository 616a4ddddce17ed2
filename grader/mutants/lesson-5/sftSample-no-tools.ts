import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "does not pass the system message's tools to the chat template" };
export const sftSample = sampleVariant("no-tools");
