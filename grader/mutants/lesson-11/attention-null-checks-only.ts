import { attentionVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "attention", mistake: "left-out options were read: pastKv and attentionMask were checked with !== null, so an option that is absent (undefined) was used; treat undefined like null" };
export const attention = attentionVariant({ nullChecksOnly: true });
