/**
 * Lesson 3's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { filterVariant, sampleVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "filteredProbabilities",
    name: "batch-max-shift",
    mistake: "the softmax subtracted the max of the whole batch (tf.max without an axis) instead of each row's: a row far below another underflows to 0/0 = NaN",
    fn: filterVariant({ batchMaxShift: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "penalty-always-divides",
    mistake: "negative scores were divided by θ, which raises them; MiniMind multiplies a score ≤ 0 by θ and divides a positive one",
    fn: filterVariant({ penaltyAlwaysDivides: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "penalty-needs-history",
    mistake: "previousTokens was read whenever the penalty is not 1; without a history there is nothing to penalise (leave the scores as they are)",
    fn: filterVariant({ penaltyNeedsHistory: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "penalty-per-occurrence",
    mistake: "a token seen twice was penalised twice; the penalty applies once per distinct previous token (torch.unique)",
    fn: filterVariant({ penaltyPerOccurrence: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "softmax-without-max",
    mistake: "the softmax was exp(s)/Σexp(s) without subtracting the row's max: a score above ≈ 88 overflows float32 to Infinity and gives NaN",
    fn: filterVariant({ naiveSoftmax: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "spread-batch-max",
    mistake: "the batch's max was taken with Math.max(...values): spreading hundreds of thousands of arguments throws a RangeError; reduce per row with tensor ops (or a loop)",
    fn: filterVariant({ spreadBatchMax: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "temperature-default-one",
    mistake: "an options object without temperature was treated as T = 1; MiniMind's default temperature is 0.85",
    fn: filterVariant({ defaults: { temperature: 1 } }),
  },
  {
    exercise: "filteredProbabilities",
    name: "temperature-last",
    mistake: "the temperature was applied after the filters; divide the logits by it first: top-p must see the tempered distribution",
    fn: filterVariant({ temperatureAfterFilters: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "top-k-off-by-default",
    mistake: "top-k was off when topK is left out; MiniMind's default keeps the 50 largest scores",
    fn: filterVariant({ defaults: { topK: 0 } }),
  },
  {
    exercise: "filteredProbabilities",
    name: "top-p-before-top-k",
    mistake: "top-p ran before top-k; MiniMind cuts to the k largest first, then computes the nucleus over what is left",
    fn: filterVariant({ topPBeforeTopK: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "top-p-drops-crossing",
    mistake: "top-p also dropped the token whose cumulative probability crosses p; shift the mask right by one so that token (and always the first) stays",
    fn: filterVariant({ topPDropsCrossing: true }),
  },
  {
    exercise: "filteredProbabilities",
    name: "top-p-inclusive",
    mistake: "top-p dropped the tokens after the cumulative probability reached p exactly; only a cumulative probability that passes p (>) removes the tokens after it",
    fn: filterVariant({ topPInclusive: true }),
  },
  {
    exercise: "sampleNextToken",
    name: "defaults-off",
    mistake: "knobs left out of the options were treated as off (T = 1, no top-k, no top-p); MiniMind's defaults are T 0.85, k 50, p 0.85",
    fn: sampleVariant({ filterDefaults: { temperature: 1, topK: 0, topP: 1 } }),
  },
  {
    exercise: "sampleNextToken",
    name: "greedy",
    mistake: "the most likely token was taken; draw one: the first token whose cumulative probability exceeds u from the seeded Rng",
    fn: sampleVariant({ greedy: true }),
  },
  {
    exercise: "sampleNextToken",
    name: "reseeded-per-row",
    mistake: "every row used a fresh Rng(seed), so identical rows always draw the same token; create one Rng per call and take one number per row",
    fn: sampleVariant({ reseedPerRow: true }),
  },
  {
    exercise: "sampleNextToken",
    name: "sorted-order",
    mistake: "the cumulative sum walked the tokens from most to least likely; walk them in vocabulary order (id 0, 1, 2, …) so that a seed picks the same token as the reference",
    fn: sampleVariant({ sortedOrder: true }),
  },
  {
    exercise: "sampleNextToken",
    name: "unfiltered",
    mistake: "the draw ignored the penalty, top-k and top-p; sample from filteredProbabilities(logits, opts)",
    fn: sampleVariant({ unfiltered: true }),
  },
];
