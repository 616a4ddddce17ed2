import type { MutantInfo } from "../../engine/types.js";
import { trainableParamsVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "trainableParams", mistake: "only names containing \".lora.\" train, so PEFT-style adapter names (`…q_proj.lora_A.default.weight`) stay frozen: every name containing \"lora\" trains" };
export const trainableParams = trainableParamsVariant({ dottedLora: true });
