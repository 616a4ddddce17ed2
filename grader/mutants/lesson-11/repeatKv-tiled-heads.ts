import type { MutantInfo } from "../../engine/types.js";
import { repeatKvVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "repeatKv", mistake: "the kv heads are tiled (query head h reads kv head h mod Hkv) instead of each repeated nRep times in a row (h reads ⌊h / nRep⌋)" };
export const repeatKv = repeatKvVariant("tiled");
