import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "the values are right but the intermediate tensors leak: wrap the body in tf.tidy(() => …)" };
export const clipGradNorm = clipVariant({ noTidy: true });
