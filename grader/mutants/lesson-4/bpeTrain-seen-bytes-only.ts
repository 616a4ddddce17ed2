import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "puts only the bytes seen in training in the alphabet, so ids shift and unseen bytes cannot be encoded" };
export const bpeTrain = trainVariant("seen-bytes-only");
