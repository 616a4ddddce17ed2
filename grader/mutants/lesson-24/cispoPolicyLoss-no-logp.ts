import type { MutantInfo } from "../../engine/types.js";
import { cispoVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "cispoPolicyLoss", mistake: "the log-prob factor is missing: CISPO's term is w·A·log π, and log π is where its gradient comes from" };
export const cispoPolicyLoss = cispoVariant({ noLogp: true });
