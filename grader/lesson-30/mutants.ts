/**
 * Lesson 30's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { mismatchVariant, sourcesVariant } from "./variants-sources.js";
import { approxVariant, stalenessVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "mismatchKl",
    name: "direct-sign",
    mistake: "the direct estimator is −log r with r = π_train/π_behave: the tokens were sampled by the engine, so KL(π_behave‖π_train) averages log π_behave − log π_train",
    fn: mismatchVariant({ directSign: true }),
  },
  {
    exercise: "mismatchKl",
    name: "dual-reversed",
    mistake: "AReaL's dual estimator here is r − 1 − log r with r = π_train/π_behave, not lesson 33's e^{−δ} − 1 + δ orientation",
    fn: mismatchVariant({ dualReversed: true }),
  },
  {
    exercise: "mismatchKl",
    name: "mean-over-padding",
    mistake: "average over the valid tokens only: padding and prompt positions are not in the denominator",
    fn: mismatchVariant({ meanOverAll: true }),
  },
  {
    exercise: "mismatchKl",
    name: "ratio-as-quotient",
    mistake: "the ratio r of the dual estimator was taken as exp(logprobs) / exp(oldLogp) in float32; for log-probs below about −104 both exponentials underflow and r is 0/0 = NaN: take exp of the log-ratio instead",
    fn: mismatchVariant({ ratioAsQuotient: true }),
  },
  {
    exercise: "mismatchKl",
    name: "taylor-no-half",
    mistake: "the Taylor estimator is (log r)²/2: the second-order term of the KL carries a half",
    fn: mismatchVariant({ taylorNoHalf: true }),
  },
  {
    exercise: "mismatchKl",
    name: "zeros-when-empty",
    mistake: "with no valid token AReaL logs nothing: return null, not a perfect-looking 0",
    fn: mismatchVariant({ zerosWhenEmpty: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "linear-in-log-space",
    mistake: "linear mixed the log-probabilities; it mixes probabilities, (1 − α)·e^old + α·e^logprobs, then takes the log",
    fn: approxVariant({ linearInLogSpace: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "no-floor",
    mistake: "linear took the log without the + 1e-10, so a mix of near-zero probabilities runs off to huge negative values",
    fn: approxVariant({ noFloor: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "prompt-tokens-interpolated",
    mistake: "prompt tokens (version −1) were interpolated; they have no generation version, so α must be 0 there (versions ≥ 0 only)",
    fn: approxVariant({ promptTokensInterpolated: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "proximal-is-current",
    mistake: "the proximal version was taken as currentVersion; AReaL assumes π_prox is one version behind: v_prox = currentVersion − 1",
    fn: approxVariant({ proximalIsCurrent: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "rollout-not-copied",
    mistake: "rollout was the oldLogp tensor itself; return a copy (tf.clone), so that disposing the approximations never frees the caller's log-probs",
    fn: approxVariant({ rolloutNotCopied: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "swapped-ends",
    mistake: "the interpolation started from logprobs; α is the step from old (behaviour) towards logprobs: old + α·(logprobs − old)",
    fn: approxVariant({ swappedEnds: true }),
  },
  {
    exercise: "proxLogpApproximations",
    name: "version-zero-excluded",
    mistake: "tokens of version 0 were treated like prompt tokens; version 0 is the first policy and its tokens are interpolated (versions ≥ 0, not > 0)",
    fn: approxVariant({ versionZeroExcluded: true }),
  },
  {
    exercise: "resolveLogps",
    name: "behave-finite-check",
    mistake: "the NaN/Inf check was applied to the behaviour log-probs too; AReaL checks only the proximal policy it is about to train against, and returns an engine log-prob of −Inf as it is",
    fn: sourcesVariant({ behaveFiniteCheck: true }),
  },
  {
    exercise: "resolveLogps",
    name: "loglinear-overrides",
    mistake: "loglinear approximates only when no recomputed proximal policy is there; a ground truth that exists is used as is",
    fn: sourcesVariant({ loglinearOverridesRecomputed: true }),
  },
  {
    exercise: "resolveLogps",
    name: "metrics-skips-forward",
    mistake: "'metrics' recomputes the proximal policy like 'recompute' (and only logs the approximations); only 'loglinear' skips the forward pass",
    fn: sourcesVariant({ metricsSkipsForward: true }),
  },
  {
    exercise: "resolveLogps",
    name: "no-finite-check",
    mistake: "a proximal policy holding NaN or ±Inf must be refused, not trained on",
    fn: sourcesVariant({ noFiniteCheck: true }),
  },
  {
    exercise: "resolveLogps",
    name: "proximal-is-behave",
    mistake: "the decoupled loss takes its ratio against the recomputed proximal policy, not against the engine's log-probs",
    fn: sourcesVariant({ proximalIsBehave: true }),
  },
  {
    exercise: "resolveLogps",
    name: "recompute-ignored",
    mistake: "with recompute_logprob and the coupled loss, the recomputed log-probs replace the engine's as old_logp (and as the proximal policy)",
    fn: sourcesVariant({ recomputeIgnored: true }),
  },
  {
    exercise: "resolveLogps",
    name: "returns-inputs",
    mistake: "the batch's own tensors were returned as behave and proximal; return new tensors (tf.clone), so that disposing the result never frees the batch",
    fn: sourcesVariant({ returnsInputs: true }),
  },
  {
    exercise: "stalenessStats",
    name: "mask-ignored",
    mistake: "the mask was ignored, so padding counted as stale tokens; count only tokens where mask is true",
    fn: stalenessVariant({ maskIgnored: true }),
  },
  {
    exercise: "stalenessStats",
    name: "mean-over-mask",
    mistake: "avg was divided by every masked-in token; divide by the tokens actually counted (mask and version ≥ 0)",
    fn: stalenessVariant({ meanOverMask: true }),
  },
  {
    exercise: "stalenessStats",
    name: "prompt-tokens-counted",
    mistake: "tokens of version −1 were counted; only generated tokens (version ≥ 0) have a staleness",
    fn: stalenessVariant({ promptTokensCounted: true }),
  },
  {
    exercise: "stalenessStats",
    name: "proximal-from-current",
    mistake: "proximal staleness was measured from currentVersion; the proximal policy is currentVersion − 1",
    fn: stalenessVariant({ proximalFromCurrent: true }),
  },
  {
    exercise: "stalenessStats",
    name: "spread-max",
    mistake: "max and min were taken with Math.max(...lag) / Math.min(...lag), which throws a RangeError (too many arguments) once a batch holds a few hundred thousand tokens; reduce with a loop instead",
    fn: stalenessVariant({ spreadMaxMin: true }),
  },
  {
    exercise: "stalenessStats",
    name: "zeros-when-empty",
    mistake: "zeros were returned when no token counts; return null (AReaL logs nothing rather than a misleading 0)",
    fn: stalenessVariant({ zerosWhenEmpty: true }),
  },
];
