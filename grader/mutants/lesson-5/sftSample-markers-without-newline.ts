import type { MutantInfo } from "../../engine/types.js";
import { sampleVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sftSample", mistake: "scans for <|im_start|>assistant and <|im_end|> without their newlines" };
export const sftSample = sampleVariant("markers-without-newline");
