/**
 * Parametrised wrong versions of lesson 34's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";

// ----- normalize -----------------------------------------------------------------------------------

export interface NormalizeFlaws {
  /** Always divides the squared deviations by n, ignoring `unbiased`. */
  alwaysBiased?: boolean;
  /** Leave-one-out mean (Σ − x_i)/n instead of /(n − 1). */
  leaveOneOutOverN?: boolean;
  /** The std is taken around the plain mean even when the mean is leave-one-out. */
  stdAroundPlainMean?: boolean;
  /** Mean and std pool every element; the mask is applied only to the output. */
  statsIgnoreMask?: boolean;
  /** No early return: an all-masked x comes back as zeros. */
  noAllMaskedReturn?: boolean;
  /** sqrt(variance + eps) instead of std + eps. */
  epsInsideSqrt?: boolean;
  /** eps stays in the divisor when stdLevel is "none". */
  epsWithoutStd?: boolean;
  /** Rows past the last full group pooled as one more, smaller group. */
  partialGroupPooled?: boolean;
  /** `options` read without a default: calling normalize(x) throws. */
  optionsRequired?: boolean;
  /** The squared deviations expanded as Σx² − 2μΣx + nμ², the three sums kept in float32: cancels catastrophically far from 0. */
  varianceShortcut?: boolean;
}

interface NormOptions {
  meanLevel?: "batch" | "group" | "none";
  stdLevel?: "batch" | "group" | "none";
  groupSize?: number;
  leaveOneOut?: boolean;
  unbiased?: boolean;
  eps?: number;
  mask?: tf.Tensor;
}

export function normalizeVariant(flaws: NormalizeFlaws) {
  return (x: tf.Tensor, given?: NormOptions): tf.Tensor => {
    const options = flaws.optionsRequired ? (given as NormOptions) : (given ?? {});
    const { meanLevel = "batch", stdLevel = "batch", groupSize = 1, leaveOneOut = false, unbiased = true, eps = 1e-5 } = options;
    const v = Array.from(x.dataSync());
    const outMask = options.mask ? Array.from(options.mask.dataSync()) : v.map(() => 1);
    if (options.mask && !flaws.noAllMaskedReturn && outMask.every((w) => w === 0)) return tf.tensor(v, x.shape, "float32");
    const m = flaws.statsIgnoreMask ? v.map(() => 1) : outMask;
    const rows = x.shape[0] ?? 1;
    const width = v.length / rows;
    const pools = (level: string): number[][] => {
      const size = level === "batch" ? rows : groupSize;
      const count = flaws.partialGroupPooled ? Math.ceil(rows / size) : Math.floor(rows / size);
      return Array.from({ length: count }, (_, g) =>
        Array.from({ length: Math.min(size, rows - g * size) * width }, (_, k) => g * size * width + k),
      );
    };
    const plainMean = new Array<number>(v.length).fill(0);
    const mean = new Array<number>(v.length).fill(0);
    const skipMean = meanLevel === "none" || (meanLevel === "group" && groupSize === 1 && leaveOneOut);
    if (!skipMean) {
      for (const pool of pools(meanLevel)) {
        const n = pool.reduce((s, i) => s + m[i], 0);
        const sum = pool.reduce((s, i) => s + v[i] * m[i], 0);
        for (const i of pool) {
          plainMean[i] = n === 0 ? 0 : sum / n;
          if (!leaveOneOut) mean[i] = plainMean[i];
          else if (n <= 1) mean[i] = 0;
          else mean[i] = m[i] > 0 ? (sum - v[i]) / (flaws.leaveOneOutOverN ? n : n - 1) : sum / n;
        }
      }
    }
    const around = flaws.stdAroundPlainMean ? plainMean : mean;
    const variance = new Array<number>(v.length).fill(1);
    const skipStd = stdLevel === "none" || (stdLevel === "group" && groupSize === 1 && unbiased);
    if (!skipStd) {
      variance.fill(0);
      for (const pool of pools(stdLevel)) {
        const n = pool.reduce((s, i) => s + m[i], 0);
        // The shortcut's three moments are summed in float64 but kept in a Float32Array (fround).
        const f = Math.fround;
        const sq =
          flaws.varianceShortcut && !leaveOneOut
            ? f(pool.reduce((s, i) => s + v[i] * v[i] * m[i], 0)) -
              2 * f(pool.reduce((s, i) => s + v[i] * around[i] * m[i], 0)) +
              f(pool.reduce((s, i) => s + around[i] * around[i] * m[i], 0))
            : pool.reduce((s, i) => s + ((v[i] - around[i]) * m[i]) ** 2, 0);
        const d = unbiased && !flaws.alwaysBiased ? n - 1 : n;
        for (const i of pool) variance[i] = d <= 0 ? 1 : sq / d;
      }
    }
    const e = stdLevel === "none" && !flaws.epsWithoutStd ? 0 : eps;
    const out = v.map((xi, i) => ((xi - mean[i]) * outMask[i]) / (flaws.epsInsideSqrt ? Math.sqrt(variance[i] + e) : Math.sqrt(variance[i]) + e));
    return tf.tensor(out, x.shape, "float32");
  };
}

// ----- rejectionSampling ---------------------------------------------------------------------------

export interface RejectionFlaws {
  /** δ = log π_behave − log π_prox. */
  flippedRatio?: boolean;
  /** Sequence-level ratio pooled as the arithmetic mean of e^δ (and that mean used as the weight). */
  arithmeticSequenceMean?: boolean;
  /** Sequence-level ratio metric keeps the per-token weights. */
  perTokenWeight?: boolean;
  /** filteredFraction over all B·T positions. */
  fractionOverAllTokens?: boolean;
  /** The weight is not zeroed where the returned mask is 0. */
  weightNotMasked?: boolean;
  /** Non-finite δ are kept. */
  noSanitize?: boolean;
  /** k3 = e^δ − 1 − δ (the reverse direction). */
  k3Reversed?: boolean;
  /** Sequence means divide by T instead of the row's valid count. */
  meanOverPadding?: boolean;
  /** KL metrics computed on the sanitised δ (a non-finite log-ratio set to 0) instead of the raw one. */
  klOnSanitizedDelta?: boolean;
  /** `config` read without a default: calling rejectionSampling(p, o, m) throws. */
  configRequired?: boolean;
  /** upper defaults to 2 instead of AReaL's 5. */
  defaultUpper2?: boolean;
  /** Bounds checked in float64 on the dataSync values: a metric equal to a decimal bound in float32 falls outside. */
  boundsInFloat64?: boolean;
}

interface RsConfig {
  level?: "token" | "sequence";
  action?: "mask" | "clamp";
  metric?: "ratio" | "kl_k1" | "kl_k2" | "kl_k3";
  agg?: "sum" | "mean" | "max";
  upper?: number;
  lower?: number;
}

export function rejectionVariant(flaws: RejectionFlaws) {
  return (prox: tf.Tensor2D, old: tf.Tensor2D, lossMask: tf.Tensor2D, given?: RsConfig) => {
    const config = flaws.configRequired ? (given as RsConfig) : (given ?? {});
    const { level = "token", action = "mask", metric = "ratio", agg = "mean", upper = flaws.defaultUpper2 ? 2 : 5, lower } = config;
    const [B, T] = lossMask.shape;
    const p = prox.dataSync();
    const o = old.dataSync();
    const m = lossMask.dataSync();
    const raw = Array.from(p, (pi, i) => (flaws.flippedRatio ? o[i] - pi : pi - o[i]));
    const delta = raw.map((d) => (flaws.noSanitize || Number.isFinite(d) ? d : 0));
    const kl = (d: number) => (metric === "kl_k1" ? d : metric === "kl_k2" ? (d * d) / 2 : flaws.k3Reversed ? Math.exp(d) - 1 - d : Math.exp(-d) - 1 + d);
    const tokenMetric = metric === "ratio" ? delta.map(Math.exp) : (flaws.klOnSanitizedDelta ? delta : raw).map(kl);
    // Bounds compared in float32, as tensors (and PyTorch) compare them, unless boundsInFloat64.
    const f32 = flaws.boundsInFloat64 ? (x: number) => x : Math.fround;
    const inside = (x: number) => f32(x) <= f32(upper) && (lower === undefined || f32(x) >= f32(lower));
    const clamp = (w: number) => Math.min(Math.max(w, lower ?? 0), upper);
    const original = delta.map(Math.exp);
    const weight = [...original];
    const keep = Array.from(m, (mi) => mi !== 0);
    for (let b = 0; b < B; b++) {
      const row = Array.from({ length: T }, (_, t) => b * T + t);
      const valid = row.filter((i) => m[i] !== 0);
      if (level === "token") {
        for (const i of row) {
          if (action === "mask") keep[i] = keep[i] && inside(tokenMetric[i]);
          else weight[i] = clamp(weight[i]);
        }
        continue;
      }
      const count = flaws.meanOverPadding ? T : Math.max(valid.length, 1);
      const logSpace = metric === "ratio" && !flaws.arithmeticSequenceMean;
      const pooled = valid.map((i) => (logSpace ? delta[i] : tokenMetric[i]));
      const sum = pooled.reduce((s, x) => s + x, 0);
      const rowValue = agg === "sum" ? sum : agg === "mean" ? sum / count : valid.length === 0 ? 0 : Math.max(...pooled);
      const rowMetric = logSpace ? Math.exp(rowValue) : rowValue;
      if (metric === "ratio" && !flaws.perTokenWeight) {
        const shared = logSpace ? Math.exp(sum / count) : sum / count;
        for (const i of row) original[i] = weight[i] = shared;
      }
      for (const i of row) {
        if (action === "mask") keep[i] = keep[i] && inside(rowMetric);
        else if (!inside(rowMetric)) weight[i] = clamp(weight[i]);
      }
    }
    const validCount = Array.from(m).filter((x) => x !== 0).length;
    const changed = Array.from(m).filter((mi, i) => mi !== 0 && (action === "mask" ? !keep[i] : weight[i] !== original[i])).length;
    const newMask = action === "mask" ? keep.map((k) => (k ? 1 : 0)) : Array.from(m);
    return {
      lossMask: tf.tensor2d(newMask, [B, T]),
      behaveImpWeight: tf.tensor2d(weight.map((w, i) => (flaws.weightNotMasked || keep[i] ? w : 0)), [B, T]),
      filteredFraction: changed / Math.max(flaws.fractionOverAllTokens ? B * T : validCount, 1),
    };
  };
}

// ----- splitMicroBatches --------------------------------------------------------------------------

export interface MicroBatchFlaws {
  /** Shortest sequences first. */
  ascending?: boolean;
  /** Equal lengths visited in reverse index order. */
  tiesReversed?: boolean;
  /** Joins the fitting micro-batch with the fewest tokens, ignoring how many sequences it has. */
  fewestTokens?: boolean;
  /** Joins the first micro-batch (in creation order) the sequence fits in. */
  firstFit?: boolean;
  /** Opens a micro-batch only when nothing fits, ignoring nMbs. */
  ignoresMinCount?: boolean;
  /** A sequence must leave room: Σ + len < budget. */
  strictBudget?: boolean;
  /** Returns the micro-batches in creation order, indices in visiting order. */
  unsorted?: boolean;
  /** Checks neither a sequence over the budget nor fewer sequences than nMbs. */
  noChecks?: boolean;
  /** Refuses a sequence of exactly maxTokensPerMb tokens (len ≥ budget). */
  budgetCheckInclusive?: boolean;
}

export function microBatchVariant(flaws: MicroBatchFlaws) {
  return (seqLens: readonly number[], nMbs: number, maxTokensPerMb = 1e12): number[][] => {
    if (!flaws.noChecks) {
      if (seqLens.some((len) => (flaws.budgetCheckInclusive ? len >= maxTokensPerMb : len > maxTokensPerMb))) throw new Error(`a sequence is longer than ${maxTokensPerMb}`);
      if (seqLens.length < nMbs) throw new Error(`${seqLens.length} sequences cannot fill ${nMbs} micro-batches`);
    }
    const order = seqLens.map((_, i) => i);
    order.sort((a, b) => {
      const byLength = flaws.ascending ? seqLens[a] - seqLens[b] : seqLens[b] - seqLens[a];
      return byLength || (flaws.tiesReversed ? b - a : a - b);
    });
    const groups: number[][] = [];
    const sums: number[] = [];
    const fits = (g: number, len: number) => (flaws.strictBudget ? sums[g] + len < maxTokensPerMb : sums[g] + len <= maxTokensPerMb);
    for (const i of order) {
      const len = seqLens[i];
      const candidates = groups.map((_, g) => g).filter((g) => fits(g, len));
      const mustOpen = (!flaws.ignoresMinCount && groups.length < nMbs) || candidates.length === 0;
      if (mustOpen) {
        groups.push([i]);
        sums.push(len);
        continue;
      }
      const rank = (g: number): number[] => (flaws.firstFit ? [g] : flaws.fewestTokens ? [sums[g], g] : [groups[g].length, sums[g], g]);
      const best = candidates.reduce((a, b) => {
        const ra = rank(a);
        const rb = rank(b);
        const k = ra.findIndex((x, j) => x !== rb[j]);
        return k >= 0 && rb[k] < ra[k] ? b : a;
      });
      groups[best].push(i);
      sums[best] += len;
    }
    if (flaws.unsorted) return groups;
    return groups.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]);
  };
}
