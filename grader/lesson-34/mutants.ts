/**
 * Lesson 34's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { tokenMeanVariant } from "./variants-token-mean.js";
import { microBatchVariant, normalizeVariant, rejectionVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "globalTokenMean",
    name: "empty-is-nan",
    mistake: "a micro-batch with no valid token contributes nothing (AReaL returns a zero loss for it), never 0/0",
    fn: tokenMeanVariant({ emptyIsNan: true }),
  },
  {
    exercise: "globalTokenMean",
    name: "mean-of-means",
    mistake: "the step's loss is a mean over tokens, not over micro-batches: a mean of micro-batch means weights the tokens of short micro-batches up",
    fn: tokenMeanVariant({ meanOfMeans: true }),
  },
  {
    exercise: "globalTokenMean",
    name: "no-dp-multiplier",
    mistake: "data-parallel training averages gradients over the R ranks, so AReaL multiplies each scale by dp_size to undo it",
    fn: tokenMeanVariant({ noDpMultiplier: true }),
  },
  {
    exercise: "globalTokenMean",
    name: "per-rank-total",
    mistake: "the loss weight is all-reduced: each micro-batch is weighted by its tokens over the tokens of ALL ranks, not of its own rank",
    fn: tokenMeanVariant({ perRankTotal: true }),
  },
  {
    exercise: "normalize",
    name: "all-masked-zeros",
    mistake: "when the mask keeps nothing, AReaL returns x unchanged, not zeros",
    fn: normalizeVariant({ noAllMaskedReturn: true }),
  },
  {
    exercise: "normalize",
    name: "always-biased",
    mistake: "your std divides by n even when unbiased is true: use n − 1 (Bessel's correction), AReaL's default",
    fn: normalizeVariant({ alwaysBiased: true }),
  },
  {
    exercise: "normalize",
    name: "eps-inside-sqrt",
    mistake: "eps is added to the std, (x − mean)/(std + eps), not to the variance under the square root",
    fn: normalizeVariant({ epsInsideSqrt: true }),
  },
  {
    exercise: "normalize",
    name: "eps-without-std",
    mistake: "with stdLevel \"none\" the divisor is exactly 1: eps is dropped as well",
    fn: normalizeVariant({ epsWithoutStd: true }),
  },
  {
    exercise: "normalize",
    name: "leave-one-out-over-n",
    mistake: "the leave-one-out mean divides by n; leaving x_i out leaves n − 1 elements",
    fn: normalizeVariant({ leaveOneOutOverN: true }),
  },
  {
    exercise: "normalize",
    name: "options-required",
    mistake: "the options were read without a default, so normalize(x) with no options threw; an omitted options object means every NormConfig default (and no mask)",
    fn: normalizeVariant({ optionsRequired: true }),
  },
  {
    exercise: "normalize",
    name: "partial-group-pooled",
    mistake: "rows past the last full group were pooled as one more, smaller group; as in AReaL they belong to no group (mean 0, std 0), so they are divided by eps alone",
    fn: normalizeVariant({ partialGroupPooled: true }),
  },
  {
    exercise: "normalize",
    name: "stats-ignore-mask",
    mistake: "the mean and std counted masked-out elements: pool only the elements where the mask is 1",
    fn: normalizeVariant({ statsIgnoreMask: true }),
  },
  {
    exercise: "normalize",
    name: "std-around-plain-mean",
    mistake: "with leave-one-out, the std must be taken around each element's own leave-one-out mean, not the plain mean",
    fn: normalizeVariant({ stdAroundPlainMean: true }),
  },
  {
    exercise: "normalize",
    name: "variance-shortcut",
    mistake: "the squared deviations were expanded as Σx² − 2μΣx + nμ² with the three sums kept in float32, which cancels catastrophically for values far from 0 (rewards around 1000 lose their spread): subtract the mean first, then square, in float64",
    fn: normalizeVariant({ varianceShortcut: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "arithmetic-sequence-mean",
    mistake: "at sequence level the ratio is pooled in log space (a geometric mean exp(mean δ)), not as the arithmetic mean of the ratios",
    fn: rejectionVariant({ arithmeticSequenceMean: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "bounds-in-float64",
    mistake: "the bounds were checked in float64 (on dataSync values) against the decimal bounds, so a metric that equals the bound in float32 (0.1 stored as 0.100000001) fell outside it; compare in float32 as tensors do, as PyTorch does",
    fn: rejectionVariant({ boundsInFloat64: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "config-required",
    mistake: "the config was read without a default, so rejectionSampling(p, o, m) with no config threw; an omitted config means every RejectionSamplingConfig default",
    fn: rejectionVariant({ configRequired: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "default-upper-2",
    mistake: "upper defaulted to 2; AReaL's default upper bound is 5 (REJECTION_DEFAULTS)",
    fn: rejectionVariant({ defaultUpper2: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "flipped-ratio",
    mistake: "the ratio is π_prox/π_behave: δ = proximal − old log-probs, not old − proximal",
    fn: rejectionVariant({ flippedRatio: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "fraction-over-all-tokens",
    mistake: "filteredFraction divides by the number of valid tokens (mask = 1), not by B·T",
    fn: rejectionVariant({ fractionOverAllTokens: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "k3-reversed",
    mistake: "k3 is e^(−δ) − 1 + δ with δ = proximal − old; you computed e^δ − 1 − δ",
    fn: rejectionVariant({ k3Reversed: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "kl-on-sanitized-delta",
    mistake: "the KL metric was computed from the sanitised log-ratio (non-finite set to 0), so a token whose behaviour log-prob is −Inf looked like KL 0 and was kept; AReaL takes the KL estimate from the raw log-ratio (+Inf, rejected) and sanitises only the weight",
    fn: rejectionVariant({ klOnSanitizedDelta: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "mean-over-padding",
    mistake: "a sequence mean divides by the row's valid tokens (at least 1), not by the padded width T",
    fn: rejectionVariant({ meanOverPadding: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "no-sanitize",
    mistake: "a non-finite log-ratio (e.g. a −inf log-prob) must be replaced by 0 before it is used",
    fn: rejectionVariant({ noSanitize: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "per-token-weight",
    mistake: "at sequence level with the ratio metric every token's weight becomes the row's geometric-mean ratio",
    fn: rejectionVariant({ perTokenWeight: true }),
  },
  {
    exercise: "rejectionSampling",
    name: "weight-not-masked",
    mistake: "behaveImpWeight must be 0 wherever the returned loss mask is 0",
    fn: rejectionVariant({ weightNotMasked: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "ascending",
    mistake: "first-fit *decreasing*: visit the longest sequences first",
    fn: microBatchVariant({ ascending: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "budget-check-inclusive",
    mistake: "a sequence of exactly maxTokensPerMb tokens was refused; only a sequence longer than the budget is an error (a micro-batch may hold exactly the budget)",
    fn: microBatchVariant({ budgetCheckInclusive: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "fewest-tokens",
    mistake: "AReaL adds a sequence to the fitting micro-batch with the fewest sequences; token sums only break ties",
    fn: microBatchVariant({ fewestTokens: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "first-fit",
    mistake: "not the first micro-batch that fits: the fitting one with the fewest sequences (then fewest tokens)",
    fn: microBatchVariant({ firstFit: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "ignores-min-count",
    mistake: "open new micro-batches until there are nMbs of them, even when the sequence would fit in an existing one",
    fn: microBatchVariant({ ignoresMinCount: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "no-checks",
    mistake: "neither error was raised: a sequence longer than maxTokensPerMb, or fewer sequences than nMbs, must throw instead of returning micro-batches",
    fn: microBatchVariant({ noChecks: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "strict-budget",
    mistake: "a micro-batch may hold exactly maxTokensPerMb tokens: the test is Σ + len ≤ budget",
    fn: microBatchVariant({ strictBudget: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "ties-reversed",
    mistake: "equal lengths are visited in index order (a stable descending sort)",
    fn: microBatchVariant({ tiesReversed: true }),
  },
  {
    exercise: "splitMicroBatches",
    name: "unsorted",
    mistake: "return each micro-batch's indices sorted, and the micro-batches sorted by their first index",
    fn: microBatchVariant({ unsorted: true }),
  },
];
