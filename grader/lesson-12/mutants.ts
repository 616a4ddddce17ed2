/**
 * Lesson 12's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { generateVariant, rotationVariant, tableVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "applyRope",
    name: "interleaved-pairs",
    mistake: "neighbouring dimensions (0, 1), (2, 3), … were paired while the table is laid out for halves, so the two numbers of a pair turn by different angles (not a rotation, and not the interleaved RoPE either); MiniMind pairs dimension j with j + D/2 (rotate_half splits the head into halves)",
    fn: rotationVariant("interleavedPairs"),
  },
  {
    exercise: "applyRope",
    name: "keys-unrotated",
    mistake: "only the queries are rotated: the keys need the same rotation, or q·k no longer depends on the distance between positions",
    fn: rotationVariant("keysUnrotated"),
  },
  {
    exercise: "applyRope",
    name: "rotate-half-off-tape",
    mistake: "rotate_half was built from the numbers (dataSync) as a new tensor: the values are right but no gradient flows through it; build it with tensor ops (split, neg, concat)",
    fn: rotationVariant("rotateHalfOffTape"),
  },
  {
    exercise: "applyRope",
    name: "rotate-half-wrong-sign",
    mistake: "rotate_half([x₁, x₂]) must be [−x₂, x₁]; [x₂, −x₁] turns every pair the other way",
    fn: rotationVariant("wrongSign"),
  },
  {
    exercise: "applyRope",
    name: "sin-cos-swapped",
    mistake: "sin and cos are swapped: x·cos + rotate_half(x)·sin",
    fn: rotationVariant("sinCosSwapped"),
  },
  {
    exercise: "generate",
    name: "eos-default-none",
    mistake: "a left-out eosTokenId never stopped generation (?? null); MiniMind's default eos_token_id is 2",
    fn: generateVariant({ eosDefaultNone: true }),
  },
  {
    exercise: "generate",
    name: "eos-in-prompt-finishes",
    mistake: "a row whose prompt already contains EOS counted as finished; only tokens generated after the prompt finish a row (a multi-turn prompt ends each turn with EOS)",
    fn: generateVariant({ eosInPromptFinishes: true }),
  },
  {
    exercise: "generate",
    name: "eos-null-as-default",
    mistake: "an explicit eosTokenId: null became 2 (opts.eosTokenId ?? 2); null means never stop early, only a left-out eosTokenId defaults to 2",
    fn: generateVariant({ eosNullAsDefault: true }),
  },
  {
    exercise: "generate",
    name: "feeds-everything-with-cache",
    mistake: "every step feeds the whole sequence while also passing the cache: feed only ids[:, past:], the tokens the cache does not hold yet",
    fn: generateVariant({ feedsEverythingWithCache: true }),
  },
  {
    exercise: "generate",
    name: "ignores-mask",
    mistake: "the attention mask is not passed to the model, so padded prompts attend to their padding",
    fn: generateVariant({ ignoresMask: true }),
  },
  {
    exercise: "generate",
    name: "ignores-pick-token",
    mistake: "opts.pickToken was ignored (always greedy); call it on the last logits when it is given",
    fn: generateVariant({ ignoresPickToken: true }),
  },
  {
    exercise: "generate",
    name: "mask-not-extended",
    mistake: "the attention mask is not extended by a 1 for each new token, so it no longer covers every key",
    fn: generateVariant({ maskNotExtended: true }),
  },
  {
    exercise: "generate",
    name: "mask-null-check-only",
    mistake: "a left-out attentionMask (undefined) was used as a mask; check for null and undefined alike",
    fn: generateVariant({ maskNullCheckOnly: true }),
  },
  {
    exercise: "generate",
    name: "never-stops-early",
    mistake: "the loop always runs maxNewTokens steps; stop as soon as every row has produced EOS",
    fn: generateVariant({ neverStopsEarly: true }),
  },
  {
    exercise: "generate",
    name: "no-eos-fill",
    mistake: "a row that already produced EOS keeps generating; it must get EOS again at every later step",
    fn: generateVariant({ noEosFill: true }),
  },
  {
    exercise: "generate",
    name: "recomputes-prefix",
    mistake: "the cache is never used: every step recomputes the whole prefix (same tokens, far more work)",
    fn: generateVariant({ recomputesPrefix: true }),
  },
  {
    exercise: "generate",
    name: "use-cache-default-false",
    mistake: "a left-out useCache turned the cache off (if (opts.useCache)), so every step recomputed the whole prefix; the default is true: the prompt once, then one token per step",
    fn: generateVariant({ cacheOffByDefault: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "attention-factor-only-when-scaling",
    mistake: "the attention factor is applied only when the table goes past the original context; MiniMind applies it whenever rope_scaling is given",
    fn: tableVariant({ attentionFactorOnlyWhenScaling: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "base-default-1e4",
    mistake: "the base defaulted to 1e4 when it is left out; MiniMind's rope_theta default is 1e6",
    fn: tableVariant({ baseDefault: 1e4 }),
  },
  {
    exercise: "ropeFrequencies",
    name: "exponent-without-two",
    mistake: "the exponent is i/D instead of 2i/D: f_i = 1 / base^(2i/D) for i = 0 … D/2 − 1 (torch.arange(0, dim, 2) / dim)",
    fn: tableVariant({ exponentWithoutTwo: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "interleaved-table",
    mistake: "each frequency is written twice in a row ([f0, f0, f1, f1, …]); MiniMind concatenates the whole half-table twice ([f0, f1, …, f0, f1, …]) to match rotate_half",
    fn: tableVariant({ interleavedTable: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "odd-dim-extra-frequency",
    mistake: "every even index below dim was a frequency (tf.range(0, dim, 2)); MiniMind keeps only the first ⌊dim/2⌋, so an odd dim has one fewer",
    fn: tableVariant({ oddDimExtraFrequency: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "ramp-flipped",
    mistake: "the YaRN ramp is the wrong way round: the fast dimensions (ramp 0) were divided by the factor and the slow ones (ramp 1) kept their frequency; it is f·((1 − γ) + γ/factor)",
    fn: tableVariant({ rampFlipped: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "ramp-unguarded",
    mistake: "the ramp divided by high − low without MiniMind's max(high − low, 0.001): when high = low (a tiny head_dim) it is 0/0 = NaN",
    fn: tableVariant({ rampUnguarded: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "scales-at-original-length",
    mistake: "the frequencies were rescaled when end equals originalMaxPositionEmbeddings; MiniMind rescales only when end / original > 1",
    fn: tableVariant({ scaleAtOriginalLength: true }),
  },
  {
    exercise: "ropeFrequencies",
    name: "scaling-null-check-only",
    mistake: "a left-out ropeScaling (undefined) was treated as given: check for null and undefined alike (no scaling)",
    fn: tableVariant({ scalingNullCheckOnly: true }),
  },
];
