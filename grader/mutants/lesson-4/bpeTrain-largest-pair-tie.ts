import type { MutantInfo } from "../../engine/types.js";
import { trainVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "bpeTrain", mistake: "breaks a tie between equally frequent pairs toward the larger ids" };
export const bpeTrain = trainVariant("largest-pair-tie");
