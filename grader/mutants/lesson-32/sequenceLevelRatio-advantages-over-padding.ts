import type { MutantInfo } from "../../engine/types.js";
import { sequenceVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "sequenceLevelRatio", mistake: "the advantage mean also sums the padded positions' advantages: only masked-in tokens count" };
export const sequenceLevelRatio = sequenceVariant({ advantagesOverPadding: true });
