import { tableVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "every even index below dim was a frequency (tf.range(0, dim, 2)); MiniMind keeps only the first ⌊dim/2⌋, so an odd dim has one fewer" };
export const ropeFrequencies = tableVariant({ oddDimExtraFrequency: true });
