/**
 * Lesson 25's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { clipVariant, klVariant, logpVariant, maskVariant, penaltyVariant, rewardVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "approxKl",
    name: "mean-over-padding",
    mistake: "divide by the number of kept tokens (the mask's sum), not by every position: padding dilutes the KL",
    fn: klVariant({ denominator: "all" }),
  },
  {
    exercise: "approxKl",
    name: "no-half",
    mistake: "the approximate KL is ½·(log ρ)²: the ½ is part of the second-order estimate",
    fn: klVariant({ noHalf: true }),
  },
  {
    exercise: "approxKl",
    name: "no-square",
    mistake: "square the log-ratio: its plain mean (k1) can be negative or cancel out, and the early stop would never fire",
    fn: klVariant({ noSquare: true }),
  },
  {
    exercise: "approxKl",
    name: "ratio-not-log",
    mistake: "the input is already log ρ: square it, not ρ − 1 = exp(log ρ) − 1",
    fn: klVariant({ ratioNotLog: true }),
  },
  {
    exercise: "approxKl",
    name: "unclamped-denominator",
    mistake: "clamp the mask's sum to at least 1: a minibatch with nothing kept must give 0, not NaN",
    fn: klVariant({ denominator: "unclamped" }),
  },
  {
    exercise: "clipFraction",
    name: "at-boundary",
    mistake: "a ratio exactly on 1 ± ε is not clipped: count |ρ − 1| > ε, strictly",
    fn: clipVariant({ atBoundary: true }),
  },
  {
    exercise: "clipFraction",
    name: "log-space",
    mistake: "the window is on ρ itself, |ρ − 1| > ε, not on log ρ",
    fn: clipVariant({ logSpace: true }),
  },
  {
    exercise: "clipFraction",
    name: "mean-over-padding",
    mistake: "divide by the number of kept tokens (the mask's sum), not by every position",
    fn: clipVariant({ denominator: "all" }),
  },
  {
    exercise: "clipFraction",
    name: "upper-only",
    mistake: "count both sides of the window: |ρ − 1| > ε includes ratios below 1 − ε",
    fn: clipVariant({ upperOnly: true }),
  },
  {
    exercise: "clipFraction",
    name: "window-bounds",
    mistake: "the window was tested as ρ > 1 + ε or ρ < 1 − ε: equal in exact arithmetic, but in float32 a ratio of 1.2 is 1.20000005, whose distance |ρ − 1| exceeds ε = 0.2; compare the float32 distance |ρ − 1| with ε, as MiniMind does",
    fn: clipVariant({ windowBounds: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "assumes-full-logits",
    mistake: "the logits may cover only the last nKeep + 1 positions (logits_to_keep): slice them from their own length L, not from the token count T",
    fn: logpVariant({ assumesFullLogits: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "gather-nd",
    mistake: "tf.gatherND has no gradient in TensorFlow.js, so the policy could not learn through these log-probs: pick with a one-hot multiply and sum",
    fn: logpVariant({ gatherNd: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "log-of-softmax",
    mistake: "log(softmax(z)) was taken in two steps: a probability below about e^−104 underflows to 0 in float32 and its log is −Inf; use tf.logSoftmax",
    fn: logpVariant({ logOfSoftmax: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "naive-log-sum-exp",
    mistake: "the log-sum-exp did not subtract the row's maximum: exp of a logit above about 88 overflows float32 to Inf; use tf.logSoftmax (or subtract the max first)",
    fn: logpVariant({ naiveLogSumExp: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "no-shift",
    mistake: "the logits at position p score the token at p + 1: use the nKeep positions before the last one (logits[:, -(nKeep+1):-1]), not the last nKeep",
    fn: logpVariant({ noShift: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "raw-logits",
    mistake: "a logit is not a log-probability: apply log-softmax over the vocabulary before picking the token's entry",
    fn: logpVariant({ rawLogits: true }),
  },
  {
    exercise: "perTokenLogps",
    name: "temperature-after-log-softmax",
    mistake: "dividing the log-probabilities by T is not the log-probability of the tempered distribution: scale the logits, then normalise",
    fn: logpVariant({ temperature: "after-log-softmax" }),
  },
  {
    exercise: "perTokenLogps",
    name: "temperature-ignored",
    mistake: "the sampler drew from softmax(logits / T): score the tokens under the same tempered distribution, or every ratio against the inference engine's log-probs is off",
    fn: logpVariant({ temperature: "ignored" }),
  },
  {
    exercise: "perTokenLogps",
    name: "temperature-multiplied",
    mistake: "a temperature divides the logits (T > 1 flattens the distribution, T < 1 sharpens it); multiplying does the opposite",
    fn: logpVariant({ temperature: "multiplied" }),
  },
  {
    exercise: "perTokenLogps",
    name: "unshifted-targets",
    mistake: "the tokens to score are the last nKeep ids (input_ids[:, -nKeep:]), one step after the logit positions, not the ids at those positions",
    fn: logpVariant({ unshiftedTargets: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "eos-excluded",
    mistake: "the response length is the first EOS index + 1: the EOS token stays in the mask so the policy learns to stop",
    fn: maskVariant({ eosExcluded: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "eos-in-padding",
    mistake: "look for EOS only among real (pad mask = 1) positions: an EOS id in the padding does not end the response",
    fn: maskVariant({ eosInPadding: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "eos-within-real-count",
    mistake: "the EOS was searched only among the first Σ padMask positions, as if the real positions were a prefix: with a hole in the pad mask, a real EOS further on is missed",
    fn: maskVariant({ eosWithinRealCount: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "int32",
    mistake: "the mask multiplies float32 losses: return it as float32 0/1, not int32 or bool",
    fn: maskVariant({ int32: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "last-eos",
    mistake: "the response ends at the first EOS, not the last one: anything after the first EOS was never meant to be said",
    fn: maskVariant({ lastEos: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "no-eos-full-window",
    mistake: "without an EOS the length is the number of real (non-pad) positions, not the window R",
    fn: maskVariant({ noEosFullWindow: true }),
  },
  {
    exercise: "ppoResponseMask",
    name: "no-pad-mask",
    mistake: "the mask is (j < length) AND the pad mask: a row of padding only has length 1 after the clamp, yet must keep nothing",
    fn: maskVariant({ noPadMask: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "ascii-word",
    mistake: "JavaScript's \\w is ASCII-only: Python's is Unicode-aware, so use the u flag with [\\p{L}\\p{N}_] (a run of Chinese characters is one token)",
    fn: penaltyVariant({ asciiWord: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "case-sensitive",
    mistake: "lower-case the text before tokenising: 'The' and 'the' are the same word to MiniMind",
    fn: penaltyVariant({ caseSensitive: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "js-whitespace",
    mistake: "JavaScript's \\s is not Python's: Python treats \\x1c-\\x1f and NEL as spaces and the BOM (U+FEFF) as a character",
    fn: penaltyVariant({ jsWhitespace: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "lower-after-tokenising",
    mistake: "each token was lower-cased after tokenising; MiniMind lower-cases the whole text first, and lower-casing can change the tokens (İ becomes i plus a combining dot, which is not a word character)",
    fn: penaltyVariant({ lowerAfterTokenising: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "no-cap",
    mistake: "the penalty is capped: min(cap, (G − U)·cap·2/G)",
    fn: penaltyVariant({ noCap: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "no-factor-two",
    mistake: "the fraction of repeated n-grams is scaled by cap·2, so half repeats already reach the cap",
    fn: penaltyVariant({ noFactorTwo: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "upper-case",
    mistake: "the text was upper-cased to ignore case; MiniMind lower-cases it (text.lower()), and the two differ: 'ß' upper-cases to 'SS', so 'straße' and 'strasse' become the same word",
    fn: penaltyVariant({ upperCase: true }),
  },
  {
    exercise: "repetitionPenalty",
    name: "whitespace-split",
    mistake: "tokenise with the regex \\w+|[^\\w\\s], not by splitting on spaces: each punctuation mark is its own token",
    fn: penaltyVariant({ whitespaceSplit: true }),
  },
  {
    exercise: "ruleReward",
    name: "js-trim",
    mistake: "JavaScript's trim() is not Python's strip(): Python strips NEL (U+0085) and \\x1c-\\x1f but keeps the BOM (U+FEFF)",
    fn: rewardVariant({ jsTrim: true }),
  },
  {
    exercise: "ruleReward",
    name: "last-think-tag",
    mistake: "split at the first </think> (Python's split('</think>', 1)), not the last",
    fn: rewardVariant({ lastThinkTag: true }),
  },
  {
    exercise: "ruleReward",
    name: "no-strip",
    mistake: "the length rules measure the stripped text: len(response.strip()), len(thinking.strip())",
    fn: rewardVariant({ noStrip: true }),
  },
  {
    exercise: "ruleReward",
    name: "penalty-on-whole-response",
    mistake: "with a think block, the repetition penalty applies to the answer after the first </think>, not to the thinking",
    fn: rewardVariant({ penaltyOnWholeResponse: true }),
  },
  {
    exercise: "ruleReward",
    name: "strict-bounds",
    mistake: "the length windows include their ends: 20 <= len <= 800 and 20 <= len <= 300",
    fn: rewardVariant({ strictBounds: true }),
  },
  {
    exercise: "ruleReward",
    name: "think-tag-excluded",
    mistake: "the thinking length left out the <think> tag: MiniMind measures everything before the first </think> (split('</think>', 1)[0], stripped), the opening tag's 7 characters included",
    fn: rewardVariant({ thinkTagExcluded: true }),
  },
  {
    exercise: "ruleReward",
    name: "utf16-length",
    mistake: "Python's len() counts code points; JavaScript's .length counts UTF-16 units (an emoji is 2): count with [...s].length",
    fn: rewardVariant({ utf16Length: true }),
  },
];
