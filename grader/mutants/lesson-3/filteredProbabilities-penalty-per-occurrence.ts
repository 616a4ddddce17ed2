import { filterVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "filteredProbabilities", mistake: "a token seen twice was penalised twice; the penalty applies once per distinct previous token (torch.unique)" };
export const filteredProbabilities = filterVariant({ penaltyPerOccurrence: true });
