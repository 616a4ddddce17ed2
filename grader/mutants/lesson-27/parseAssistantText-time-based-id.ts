import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "the default idPrefix was taken from the clock, as MiniMind's call_{int(time.time())}; the contract's default is \"call\", so ids are call_0, call_1, … and a reply parses the same every time",
};
export const parseAssistantText = parseVariant({ timeBasedDefaultId: true });
