import { sampleVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "sampleNextToken", mistake: "knobs left out of the options were treated as off (T = 1, no top-k, no top-p); MiniMind's defaults are T 0.85, k 50, p 0.85" };
export const sampleNextToken = sampleVariant({ filterDefaults: { temperature: 1, topK: 0, topP: 1 } });
