import type { MutantInfo } from "../../engine/types.js";
import { repeatKvVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "repeatKv", mistake: "the copy axis is inserted after head_dim instead of after the kv-head axis, so each new head interleaves numbers of one old head" };
export const repeatKv = repeatKvVariant("afterHeadDim");
