/**
 * Parametrised wrong versions of lesson 25's functions. Each mutant file picks one flaw, so every
 * mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import { PY_WHITESPACE } from "../../solutions/lesson-25/python-text.js";

export interface LogpFlaws {
  /** Scores with the last nKeep logits: the position that predicts nothing is kept, the first one lost. */
  noShift?: boolean;
  /** Picks raw logits: no log-softmax. */
  rawLogits?: boolean;
  /** Targets the tokens at the scoring positions instead of the ones after them. */
  unshiftedTargets?: boolean;
  /** Assumes the logits cover all T tokens (L = T) when slicing them. */
  assumesFullLogits?: boolean;
  /** tf.gatherND picks the log-prob: right values, but no gradient in TensorFlow.js. */
  gatherNd?: boolean;
  /** Where the temperature goes: ignored, multiplied into the logits, or dividing the log-probs. */
  temperature?: "ignored" | "multiplied" | "after-log-softmax";
  /** log(softmax(z)): a probability that underflows to 0 gives −Inf (spreads beyond about 104). */
  logOfSoftmax?: boolean;
  /** z − log(Σ exp z) without subtracting the max: exp overflows for logits above about 88. */
  naiveLogSumExp?: boolean;
}

function logSoftmaxOf(z: tf.Tensor, flaws: LogpFlaws): tf.Tensor {
  if (flaws.logOfSoftmax) return tf.log(tf.softmax(z));
  if (flaws.naiveLogSumExp) return tf.sub(z, tf.log(tf.sum(tf.exp(z), -1, true)));
  return tf.logSoftmax(z);
}

export function logpVariant(flaws: LogpFlaws) {
  return (logits: tf.Tensor3D, inputIds: tf.Tensor2D, nKeep: number, temperature = 1): tf.Tensor2D => {
    const [B, L, V] = logits.shape;
    if (nKeep <= 0) return tf.zeros([B, 0]);
    const T = inputIds.shape[1];
    return tf.tidy(() => {
      const lastLogit = flaws.assumesFullLogits ? T : L;
      const start = lastLogit - nKeep - (flaws.noShift ? 0 : 1);
      const scoring = tf.slice(logits, [0, start, 0], [B, nKeep, V]);
      const targets = tf.slice(inputIds, [0, T - nKeep - (flaws.unshiftedTargets ? 1 : 0)], [B, nKeep]);
      const t = flaws.temperature;
      const scaled = t === "ignored" || t === "after-log-softmax" ? scoring : t === "multiplied" ? tf.mul(scoring, temperature) : tf.div(scoring, temperature);
      const logProbs = flaws.rawLogits ? scaled : logSoftmaxOf(scaled, flaws);
      const scores = t === "after-log-softmax" ? tf.div(logProbs, temperature) : logProbs;
      if (flaws.gatherNd) {
        const idx: number[][] = [];
        const t = targets.arraySync() as number[][];
        for (let b = 0; b < B; b++) for (let j = 0; j < nKeep; j++) idx.push([b, j, t[b][j]]);
        return tf.reshape(tf.gatherND(scores, tf.tensor2d(idx, [B * nKeep, 3], "int32")), [B, nKeep]) as tf.Tensor2D;
      }
      return tf.sum(tf.mul(scores, tf.oneHot(targets, V, 1, 0, "float32")), -1) as tf.Tensor2D;
    });
  };
}

export interface MaskFlaws {
  /** length = first EOS (the EOS token itself is dropped). */
  eosExcluded?: boolean;
  /** The last EOS rather than the first. */
  lastEos?: boolean;
  /** EOS searched over every position, padding included. */
  eosInPadding?: boolean;
  /** mask = j < length, without the pad mask. */
  noPadMask?: boolean;
  /** No EOS: the whole window R instead of the number of real positions. */
  noEosFullWindow?: boolean;
  /** An int32 mask instead of float32. */
  int32?: boolean;
  /** The EOS searched only at j < Σ padMask, as if the real positions were a prefix. */
  eosWithinRealCount?: boolean;
}

export function maskVariant(flaws: MaskFlaws) {
  return (completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number): tf.Tensor2D => {
    const [B, R] = completionIds.shape;
    const ids = completionIds.dataSync();
    const valid = padMask.dataSync();
    const mask = new Float32Array(B * R);
    for (let b = 0; b < B; b++) {
      const row = b * R;
      let count = 0;
      let eos = -1;
      for (let j = 0; j < R; j++) if (valid[row + j] !== 0) count++;
      const searchEnd = flaws.eosWithinRealCount ? count : R;
      for (let j = 0; j < searchEnd; j++) {
        const real = valid[row + j] !== 0;
        if ((real || flaws.eosInPadding) && ids[row + j] === eosTokenId && (eos < 0 || flaws.lastEos)) eos = j;
      }
      const noEos = flaws.noEosFullWindow ? R : count;
      const length = Math.max(eos >= 0 ? eos + (flaws.eosExcluded ? 0 : 1) : noEos, 1);
      for (let j = 0; j < length && j < R; j++) mask[row + j] = flaws.noPadMask || valid[row + j] !== 0 ? 1 : 0;
    }
    return flaws.int32 ? tf.tensor2d(Int32Array.from(mask), [B, R], "int32") : tf.tensor2d(mask, [B, R]);
  };
}

/** Python's `\w`, as the reference writes it. */
const PY_WORD = "\\p{L}\\p{N}_";

export interface PenaltyFlaws {
  /** /\w+|[^\w\s]/g without the u flag: ASCII words only, and surrogate halves as tokens. */
  asciiWord?: boolean;
  /** JavaScript's \s (BOM included, \x1c-\x1f and NEL excluded) instead of Python's. */
  jsWhitespace?: boolean;
  /** No lower-casing. */
  caseSensitive?: boolean;
  /** Tokens by splitting on whitespace. */
  whitespaceSplit?: boolean;
  /** No min(cap, …). */
  noCap?: boolean;
  /** Tokenises the original text and lower-cases each token afterwards (İ's lower case is two code points). */
  lowerAfterTokenising?: boolean;
  /** Upper-cases instead of lower-casing ("ß" becomes "SS"). */
  upperCase?: boolean;
  /** (G − U)·cap / G: the factor 2 dropped. */
  noFactorTwo?: boolean;
}

function tokenise(text: string, flaws: PenaltyFlaws): string[] {
  const lowered = flaws.caseSensitive || flaws.lowerAfterTokenising ? text : flaws.upperCase ? text.toUpperCase() : text.toLowerCase();
  if (flaws.whitespaceSplit) return lowered.split(/\s+/u).filter((t) => t !== "");
  if (flaws.asciiWord) return lowered.match(/\w+|[^\w\s]/g) ?? [];
  const space = flaws.jsWhitespace ? "\\s" : PY_WHITESPACE;
  const tokens = lowered.match(new RegExp(`[${PY_WORD}]+|[^${PY_WORD}${space}]`, "gu")) ?? [];
  return flaws.lowerAfterTokenising ? tokens.map((t) => t.toLowerCase()) : tokens;
}

export function penaltyVariant(flaws: PenaltyFlaws) {
  return (text: string, n = 3, cap = 0.5): number => {
    const tokens = tokenise(text, flaws);
    const grams = tokens.length - n + 1;
    if (grams <= 0) return 0;
    const distinct = new Set<string>();
    for (let i = 0; i < grams; i++) distinct.add(JSON.stringify(tokens.slice(i, i + n)));
    const raw = ((grams - distinct.size) * cap * (flaws.noFactorTwo ? 1 : 2)) / grams;
    return flaws.noCap ? raw : Math.min(cap, raw);
  };
}

export interface RewardFlaws {
  /** Lengths of the raw text, whitespace included. */
  noStrip?: boolean;
  /** JavaScript's trim() (strips the BOM, keeps NEL and \x1c-\x1f). */
  jsTrim?: boolean;
  /** `.length`: UTF-16 units, so an emoji counts twice. */
  utf16Length?: boolean;
  /** 20 < length < max: the ends excluded. */
  strictBounds?: boolean;
  /** The repetition penalty on the whole response, thinking included. */
  penaltyOnWholeResponse?: boolean;
  /** Split at the last </think>. */
  lastThinkTag?: boolean;
  /** The thinking measured without its opening `<think>` tag (MiniMind measures everything before </think>). */
  thinkTagExcluded?: boolean;
}

const PY_STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "gu");
const penalty = penaltyVariant({});

export function rewardVariant(flaws: RewardFlaws) {
  const strip = (s: string) => (flaws.noStrip ? s : flaws.jsTrim ? s.trim() : s.replace(PY_STRIP, ""));
  const length = (s: string) => (flaws.utf16Length ? s.length : [...s].length);
  const within = (s: string, max: number) => {
    const len = length(strip(s));
    return flaws.strictBounds ? len > 20 && len < max : len >= 20 && len <= max;
  };
  return (response: string): number => {
    const tag = "</think>";
    let reward = within(response, 800) ? 0.5 : -0.5;
    let answer = response;
    const end = flaws.lastThinkTag ? response.lastIndexOf(tag) : response.indexOf(tag);
    if (end >= 0) {
      const thinking = response.slice(0, end);
      reward += within(flaws.thinkTagExcluded ? thinking.replace("<think>", "") : thinking, 300) ? 1.0 : -0.5;
      reward += response.split(tag).length === 2 ? 0.25 : -0.25;
      answer = flaws.penaltyOnWholeResponse ? response : response.slice(end + tag.length).replace(PY_STRIP, "");
    }
    return reward - penalty(answer);
  };
}

/** Σ(x·m)/max(Σm, 1), or the flawed denominators learners write. */
export function meanOver(x: tf.Tensor, mask: tf.Tensor, denominator: "masked" | "all" | "unclamped" = "masked"): tf.Scalar {
  const total = tf.sum(tf.mul(x, mask));
  if (denominator === "all") return tf.div(total, x.size);
  if (denominator === "unclamped") return tf.div(total, tf.sum(mask));
  return tf.div(total, tf.maximum(tf.sum(mask), 1));
}

export interface KlFlaws {
  /** (log ρ)² without the ½. */
  noHalf?: boolean;
  /** The plain mean of log ρ (k1), not its square. */
  noSquare?: boolean;
  /** ½(ρ − 1)² with ρ = exp(log ρ). */
  ratioNotLog?: boolean;
  denominator?: "masked" | "all" | "unclamped";
}

export function klVariant(flaws: KlFlaws) {
  return (logRatio: tf.Tensor2D, mask: tf.Tensor2D): tf.Scalar =>
    tf.tidy(() => {
      const x = flaws.ratioNotLog ? tf.sub(tf.exp(logRatio), 1) : logRatio;
      const perToken = flaws.noSquare ? x : tf.mul(flaws.noHalf ? 1 : 0.5, tf.square(x));
      return meanOver(perToken, mask, flaws.denominator);
    });
}

export interface ClipFlaws {
  /** |ρ − 1| ≥ ε: the boundary counted as clipped. */
  atBoundary?: boolean;
  /** Only ρ > 1 + ε counts. */
  upperOnly?: boolean;
  /** |log ρ| > ε: the window taken in log space. */
  logSpace?: boolean;
  /** (ρ > 1 + ε) | (ρ < 1 − ε): the same window in exact arithmetic, but float32 rounds 1 + ε and ρ − 1 differently. */
  windowBounds?: boolean;
  denominator?: "masked" | "all" | "unclamped";
}

export function clipVariant(flaws: ClipFlaws) {
  return (ratio: tf.Tensor2D, mask: tf.Tensor2D, eps: number): tf.Scalar =>
    tf.tidy(() => {
      if (flaws.windowBounds) return meanOver(tf.cast(tf.logicalOr(tf.greater(ratio, 1 + eps), tf.less(ratio, 1 - eps)), "float32"), mask, flaws.denominator);
      const distance = flaws.logSpace ? tf.abs(tf.log(ratio)) : flaws.upperOnly ? tf.sub(ratio, 1) : tf.abs(tf.sub(ratio, 1));
      const outside = flaws.atBoundary ? tf.greaterEqual(distance, eps) : tf.greater(distance, eps);
      return meanOver(tf.cast(outside, "float32"), mask, flaws.denominator);
    });
}
