import type { MutantInfo } from "../../engine/types.js";
import { applyLoraVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "applyLora", mistake: "every linear layer got an adapter; MiniMind adapts only layers with in_features == out_features (square weights)" };
export const applyLora = applyLoraVariant({ everyLinear: true });
