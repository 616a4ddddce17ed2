/** Hints for lesson 34 (normalisation and micro-batching): one nudge, one key idea and one formula per function. */
import type { LessonHints } from "../engine/hint-types.js";

const hints: LessonHints = {
  lesson: "lesson-34",
  functions: {
    normalize: {
      nudge:
        "Every output is (x − μ)/(σ + ε), but μ and σ depend on the pool (the batch, or a group of groupSize consecutive rows), on the mask, and on leave-one-out. " +
        "With leave-one-out each element has its own mean: around which mean should the spread then be measured?",
      keyIdea:
        "Read x and the mask once (dataSync) and compute in float64 on typed arrays (TensorFlow.js has no float64), returning a float32 tensor of x's shape. " +
        "If a mask is given and keeps nothing, return x unchanged (as float32), not zeros. Pool only masked-in elements: n = Σm. " +
        "Mean: plain masked mean, or leave-one-out (Σ − x_i)/(n − 1) for kept elements (divide by n − 1, not n; masked elements keep the plain mean), 0 when n ≤ 1. " +
        "Std: the squared deviations of each element from its OWN mean, divided by n − 1 when unbiased (the default) or n, with fallback 1 when that divisor is ≤ 0. " +
        "Add eps to the std, never under the square root; with stdLevel \"none\" use σ = 1 and drop eps as well; meanLevel \"none\" means μ = 0. " +
        "groupSize 1 is special: a group leave-one-out mean is 0 and an unbiased group std is 1. Multiply the centred value by m, so masked elements come out 0. " +
        "B should be a multiple of groupSize: rows past the last full group are divided by eps alone.",
      formula:
        "With n = Σ_P m for each pool P:  μ_i = Σ_P m·x / n, or with leave-one-out (Σ_P m·x − x_i·m_i) / max(n − m_i, 1) where m_i > 0 (the plain mean where m_i = 0), and 0 when n ≤ 1;  " +
        "σ_i = √(Σ_P (m·x − m·μ)² / (n − 1)) when unbiased (1 when n ≤ 1), √(Σ_P (m·x − m·μ)² / n) otherwise (1 when n = 0);  " +
        "out_i = (x_i − μ_i)·m_i / (σ_i + ε); level \"none\": μ = 0, or σ = 1 with ε = 0. AReaL: areal/utils/data.py:1378-1595 @ 4aef98d8 (defaults: areal/api/cli_args.py:42-95).",
    },
    rejectionSampling: {
      nudge:
        "Each token's importance weight compares the proximal policy with the behaviour policy that sampled it. Which way round is the ratio, and at sequence level, " +
        "how do you pool ratios so that a long answer is not penalised just for being long?",
      keyIdea:
        "δ = proximal − old (so w = e^δ = π_prox/π_behave); replace non-finite δ by 0 (an is-finite test and a where) for the ratio metric and the weight only. " +
        "Metrics: ratio e^δ, and from the RAW δ (a −Inf behaviour log-prob gives +Inf, which is out of bounds) k1 δ, k2 δ²/2, k3 e^(−δ) − 1 + δ (that direction, unclamped). " +
        "An omitted config, or omitted keys, take REJECTION_DEFAULTS (token level, mask, ratio, mean, upper 5). Compare with the bounds as tensors (float32, as PyTorch does), not on dataSync values in float64. " +
        "Token level: `mask` keeps valid tokens with lower ≤ metric ≤ upper, `clamp` clips w to [lower ?? 0, upper]. " +
        "Sequence level pools a row's valid tokens by sum, mean (over the row's valid count, at least 1, not T) or max (an all-masked row counts as 0); for the ratio metric pool δ and exponentiate (geometric mean), " +
        "and every token's weight becomes the row's geometric mean; one verdict per row: `mask` drops whole rows out of bounds, `clamp` clips w only in those rows. " +
        "The weight is 0 wherever the returned mask is 0; filteredFraction = tokens dropped (or whose weight clamping changed) / valid tokens, not B·T. " +
        "lossMask is float32: build a bool from mask ≠ 0 for the where, return the new mask as float32, and the fraction as a plain number (dataSync), all in one tidy scope.",
      formula:
        "δ = finite(prox − old) ? prox − old : 0;  w = e^δ;  metric = e^δ, or k1/k2/k3 of the raw prox − old;  token: keep = valid ∧ lower ≤ metric ≤ upper;  sequence, ratio: w_row = exp(agg_t δ), e.g. exp(Σδ / max(n, 1));  " +
        "clamp: w = clip(w, lower ?? 0, upper) where out of bounds;  behaveImpWeight = keep ? w : 0. " +
        "AReaL: areal/utils/functional/functional.py:185-426 @ 4aef98d8 (2-D branch 347-400; KL estimators areal/utils/data.py:1620-1656).",
    },
    splitMicroBatches: {
      nudge:
        "AReaL's allocator is first-fit decreasing, with a twist in how it picks among the micro-batches that have room. What does it minimise first: tokens, or sequences?",
      keyIdea:
        "Throw if a sequence exceeds the budget or there are fewer sequences than nMbs. Visit indices longest first, equal lengths in index order (a stable descending sort on a copy; never sort seqLens in place). " +
        "Open a new micro-batch while fewer than nMbs exist, or when the sequence fits in none (Σ + len ≤ budget: equality fits). " +
        "Otherwise, among those it fits in, pick the one with the FEWEST SEQUENCES; ties go to the smaller token sum, then the older micro-batch (not simply the first that fits, nor the fewest tokens). " +
        "Finally sort the indices inside each micro-batch, and the micro-batches by their first index. " +
        "(AReaL sorts with numpy's default argsort, which keeps equal lengths in index order only for up to 16 sequences; beyond that its order among ties is not specified.)",
      formula:
        "order = indices by (−len, index);  for i in order: if #groups < nMbs or no g with Σ_g + len_i ≤ C: new group [i]; else add i to argmin over fitting g of (size_g, Σ_g, creation_g);  " +
        "return sorted groups sorted by first index (C = 1e12 by default). AReaL: areal/utils/seqpack.py:195-255 and areal/utils/data.py:448-472 @ 4aef98d8.",
    },
    globalTokenMean: {
      nudge:
        "One optimiser step should average the per-token loss over every valid token of the step. Each micro-batch hands you only its own token-mean. By how much must it be scaled so that the pieces add up to that average, and what does averaging gradients over the ranks do to it?",
      keyIdea:
        "Let N be the valid tokens of ALL micro-batches of ALL ranks (AReaL all-reduces the loss weights). A micro-batch with n tokens is worth n/N of the step; data-parallel training then averages gradients over the R ranks, so AReaL multiplies by R to cancel it: scale = n/N · R. " +
        "The step's loss is Σ (sum/n) · scale / R over the micro-batches with n > 0 = Σ sums / N. A micro-batch with n = 0 contributes 0 (its scale is 0). Refuse N = 0.",
      formula:
        "N = Σ_r Σ_m n_rm;  scales[r][m] = n_rm / N · R;  loss = (1/R) Σ_{n_rm > 0} (s_rm / n_rm) · scales[r][m] = Σ s / N. " +
        "AReaL: areal/engine/core/train_engine.py:30-65 and areal/engine/fsdp_engine.py:775-790, 1987-1989, 2045-2046 @ 4aef98d8.",
    },
  },
};

export default hints;
