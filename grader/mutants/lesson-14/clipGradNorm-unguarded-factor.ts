import { clipVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "clipGradNorm", mistake: "the factor is maxNorm / ‖g‖ when ‖g‖ > maxNorm: PyTorch divides by ‖g‖ + 1e-6 and caps at 1, which matters when the norms are tiny" };
export const clipGradNorm = clipVariant({ noEpsGuard: true });
