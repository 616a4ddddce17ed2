import type { MutantInfo } from "../../engine/types.js";
import { parseVariant } from "./_variants.js";

export const mutant: MutantInfo = {
  exercise: "parseAssistantText",
  mistake: "the defaults were applied with ??, so a null name became \"\" and null arguments \"{}\"; Python's call.get(key, default) only defaults a missing key: a null name stays null and json.dumps(None) is \"null\"",
};
export const parseAssistantText = parseVariant({ nullishName: true, nullishArguments: true });
