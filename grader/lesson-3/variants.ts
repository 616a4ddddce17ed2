/**
 * Parametrised wrong versions of lesson 3's functions, written row by row on plain arrays. Each
 * mutant file picks one flaw, so every mutant differs from the reference in exactly one
 * plausible way.
 */
import * as tf from "../../lib/tf.js";
import { Rng } from "../../lib/random.js";
import type { SampleOptions, SamplingOptions } from "../../solutions/lesson-3/sampling.js";

export interface FilterFlaws {
  /** Top-k and top-p run on the raw logits; the temperature is applied only before the softmax. */
  temperatureAfterFilters?: boolean;
  /** Top-p runs before top-k. */
  topPBeforeTopK?: boolean;
  /** Top-p also drops the token whose cumulative probability crosses p (the mask is not shifted). */
  topPDropsCrossing?: boolean;
  /** Every seen score is divided by θ, negative ones too (which raises them). */
  penaltyAlwaysDivides?: boolean;
  /** The penalty is applied once per occurrence instead of once per distinct token. */
  penaltyPerOccurrence?: boolean;
  /** Other defaults for the knobs an options object leaves out (MiniMind's are T 0.85, k 50, p 0.85). */
  defaults?: { temperature?: number; topK?: number; topP?: number };
  /** Top-p drops the tokens after the cumulative probability reaches p (≥), not only once it passes p. */
  topPInclusive?: boolean;
  /** softmax as exp(s) / Σ exp(s) in float32, without subtracting the row's max first. */
  naiveSoftmax?: boolean;
  /** The stable shift uses the max of the whole batch (tf.max without an axis) instead of each row's, in float32. */
  batchMaxShift?: boolean;
  /** The batch's max found with Math.max(...allLogits) (argument spreading), the rest in float64. */
  spreadBatchMax?: boolean;
  /** The penalty reads previousTokens whenever θ ≠ 1, even when no history was given. */
  penaltyNeedsHistory?: boolean;
}

/** exp rounded to float32, as a tfjs kernel computes it: overflows above ≈ 88.7, underflows below ≈ −103. */
const exp32 = (x: number) => Math.fround(Math.exp(x));

/** The softmax a flaw asks for; `shift` replaces the row's own max (the batch's, for the shift flaws). */
function flawedSoftmax(scores: number[], flaws: FilterFlaws, shift?: number): number[] {
  if (flaws.naiveSoftmax) {
    const exps = scores.map((s) => exp32(s));
    const sum = Math.fround(exps.reduce((a, b) => a + b, 0));
    return exps.map((e) => e / sum);
  }
  if (shift === undefined) return softmax(scores);
  const e = flaws.batchMaxShift ? exp32 : Math.exp;
  const exps = scores.map((s) => (s === -Infinity ? 0 : e(s - shift)));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / sum);
}

function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - max)));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

function keepTopK(s: number[], k: number): number[] {
  const kth = [...s].sort((a, b) => b - a)[k - 1];
  return s.map((v) => (v < kth ? -Infinity : v));
}

function keepTopP(s: number[], p: number, dropCrossing: boolean, flaws: FilterFlaws = {}): number[] {
  const order = s.map((_, i) => i).sort((a, b) => s[b] - s[a]);
  const probabilities = flaws.naiveSoftmax ? flawedSoftmax(order.map((i) => s[i]), flaws) : softmax(order.map((i) => s[i]));
  const out = [...s];
  let cumulative = 0;
  order.forEach((token, j) => {
    const before = cumulative;
    cumulative += probabilities[j];
    const remove = dropCrossing ? cumulative > p : j > 0 && (flaws.topPInclusive ? before >= p : before > p);
    if (remove) out[token] = -Infinity;
  });
  return out;
}

function filterRow(row: number[], seen: number[], opts: SamplingOptions, flaws: FilterFlaws, shift?: number): number[] {
  const d = flaws.defaults ?? {};
  const { temperature = d.temperature ?? 0.85, topK = d.topK ?? 50, topP = d.topP ?? 0.85, repetitionPenalty = 1.0 } = opts;
  let s = flaws.temperatureAfterFilters ? [...row] : row.map((v) => v / temperature);
  if (flaws.penaltyNeedsHistory && repetitionPenalty !== 1.0 && !opts.previousTokens) {
    throw new TypeError("Cannot read properties of undefined (reading 'dataSync')");
  }
  if (repetitionPenalty !== 1.0) {
    for (const id of flaws.penaltyPerOccurrence ? seen : [...new Set(seen)]) {
      s[id] = flaws.penaltyAlwaysDivides || s[id] > 0 ? s[id] / repetitionPenalty : s[id] * repetitionPenalty;
    }
  }
  const applyTopK = (x: number[]) => (topK > 0 ? keepTopK(x, topK) : x);
  const applyTopP = (x: number[]) => (topP < 1.0 ? keepTopP(x, topP, !!flaws.topPDropsCrossing, flaws) : x);
  s = flaws.topPBeforeTopK ? applyTopK(applyTopP(s)) : applyTopP(applyTopK(s));
  if (flaws.temperatureAfterFilters) s = s.map((v) => v / temperature);
  return flawedSoftmax(s, flaws, shift === undefined ? undefined : shift / temperature);
}

/** The logits as rows of numbers, and each row's history. */
function rowsOf(logits: tf.Tensor, opts: SamplingOptions): { rows: number[][]; seen: number[][] } {
  const V = logits.shape[logits.shape.length - 1];
  const values = Array.from(logits.dataSync());
  const rows = Array.from({ length: values.length / V }, (_, b) => values.slice(b * V, (b + 1) * V));
  const history = opts.previousTokens ? Array.from(opts.previousTokens.dataSync()) : [];
  const S = history.length / rows.length;
  return { rows, seen: rows.map((_, b) => history.slice(b * S, (b + 1) * S)) };
}

function filterAll(logits: tf.Tensor, opts: SamplingOptions, flaws: FilterFlaws): number[][] {
  const { rows, seen } = rowsOf(logits, opts);
  let shift: number | undefined;
  if (flaws.spreadBatchMax) shift = Math.max(...logits.dataSync());
  else if (flaws.batchMaxShift) shift = tf.tidy(() => tf.max(logits).dataSync()[0]);
  return rows.map((row, b) => filterRow(row, seen[b], opts, flaws, shift));
}

export function filterVariant(flaws: FilterFlaws) {
  return (logits: tf.Tensor1D | tf.Tensor2D, opts: SamplingOptions = {}): tf.Tensor =>
    tf.tensor(filterAll(logits, opts, flaws).flat(), logits.shape, "float32");
}

export interface SampleFlaws {
  /** Takes the most likely token instead of drawing one. */
  greedy?: boolean;
  /** Draws from softmax(logits / T), ignoring the penalty, top-k and top-p. */
  unfiltered?: boolean;
  /** A new Rng(seed) for every row, so every row uses the same u. */
  reseedPerRow?: boolean;
  /** The cumulative sum walks the tokens from most to least likely (as top-p sorts them), not in vocabulary order. */
  sortedOrder?: boolean;
  /** The filters run with other defaults for the knobs the options leave out. */
  filterDefaults?: FilterFlaws["defaults"];
}

function inverseCdf(probabilities: number[], u: number): number {
  let cumulative = 0;
  let last = -1;
  for (let i = 0; i < probabilities.length; i++) {
    if (probabilities[i] <= 0) continue;
    cumulative += probabilities[i];
    last = i;
    if (u < cumulative) return i;
  }
  return last;
}

export function sampleVariant(flaws: SampleFlaws) {
  return (logits: tf.Tensor1D | tf.Tensor2D, opts: SampleOptions): tf.Tensor => {
    const filterOpts = flaws.unfiltered ? { temperature: opts.temperature, topK: 0, topP: 1, repetitionPenalty: 1 } : opts;
    const distributions = filterAll(logits, filterOpts, { defaults: flaws.filterDefaults });
    const shared = new Rng(opts.seed);
    const tokens = distributions.map((p) => {
      if (flaws.greedy) return p.indexOf(Math.max(...p));
      const u = (flaws.reseedPerRow ? new Rng(opts.seed) : shared).next();
      if (flaws.sortedOrder) {
        const order = p.map((_, i) => i).sort((a, b) => p[b] - p[a]);
        return order[inverseCdf(order.map((i) => p[i]), u)];
      }
      return inverseCdf(p, u);
    });
    return tf.tensor(tokens, logits.shape.slice(0, -1), "int32");
  };
}
