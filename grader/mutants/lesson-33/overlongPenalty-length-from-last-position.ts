import type { MutantInfo } from "../../engine/types.js";
import { overlongVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "overlongPenalty",
  mistake: "the response length was taken as the position of the last loss-mask token + 1, which counts the prompt and any holes (tool output); the length is the row's count of loss-mask tokens",
};
export const overlongPenalty = overlongVariant({ lengthFromLastPosition: true });
