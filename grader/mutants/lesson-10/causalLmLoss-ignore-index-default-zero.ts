import { lossVariant } from "./_variants.js";
import type { MutantInfo } from "../../engine/types.js";

export const mutant: MutantInfo = { exercise: "causalLmLoss", mistake: "the ignore index defaults to 0 (the pad id) when it is left out; PyTorch's and MiniMind's default is −100" };
export const causalLmLoss = lossVariant({ defaultIgnoreIndex: 0 });
