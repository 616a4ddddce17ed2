import type { MutantInfo } from "../../engine/types.js";
import { tableVariant } from "./_variants.js";

export const mutant: MutantInfo = { exercise: "ropeFrequencies", mistake: "each frequency is written twice in a row ([f0, f0, f1, f1, …]); MiniMind concatenates the whole half-table twice ([f0, f1, …, f0, f1, …]) to match rotate_half" };
export const ropeFrequencies = tableVariant({ interleavedTable: true });
