import type { MutantInfo } from "../../engine/types.js";
import { mismatchVariant } from "./_sources.js";

export const mutant: MutantInfo = {
  exercise: "mismatchKl",
  mistake: "the direct estimator is −log r with r = π_train/π_behave: the tokens were sampled by the engine, so KL(π_behave‖π_train) averages log π_behave − log π_train",
};
export const mismatchKl = mismatchVariant({ directSign: true });
