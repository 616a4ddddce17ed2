/**
 * Lesson 3 — Inference end to end: choosing the next token.
 *
 * Shapes: logits are [V] (one sequence) or [B, V] (a batch), V = vocabSize; the result keeps the
 * leading shape. Read lessons/03-inference-end-to-end.md first; every function cites the MiniMind
 * lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { Rng } from "../../lib/random.js";

/** The knobs of MiniMind's `generate`, with its defaults. */
export interface SamplingOptions {
  /** Divides the logits first; < 1 sharpens, > 1 flattens (default 0.85). */
  temperature?: number;
  /** Keep the k largest logits; 0 turns it off (default 50). */
  topK?: number;
  /** Keep the smallest set of most likely tokens whose probability passes p; 1 turns it off (default 0.85). */
  topP?: number;
  /** > 1 discourages every token already seen; 1 turns it off (default 1). */
  repetitionPenalty?: number;
  /** int32 ids seen so far (prompt and generated): [S] for [V] logits, [B, S] for [B, V]. */
  previousTokens?: tf.Tensor1D | tf.Tensor2D;
}

export interface SampleOptions extends SamplingOptions {
  /** Seeds the course's Rng: the same seed gives the same tokens. */
  seed: number;
}

// BEGIN SOLUTION
/** Seen tokens' scores pushed towards −∞: s/θ where s > 0, s·θ otherwise. `previousTokens`: [B, S]. */
function penaliseSeen(scores: tf.Tensor2D, previousTokens: tf.Tensor2D, penalty: number): tf.Tensor2D {
  const V = scores.shape[1];
  const seen = tf.cast(tf.max(tf.oneHot(previousTokens, V), 1), "bool"); // [B, V], each id once
  const penalised = tf.where(tf.greater(scores, 0), tf.div(scores, penalty), tf.mul(scores, penalty));
  return tf.where(seen, penalised, scores) as tf.Tensor2D;
}

/** Scores below the k-th largest of their row become −∞ (ties with it survive). */
function keepTopK(scores: tf.Tensor2D, k: number): tf.Tensor2D {
  const [B] = scores.shape;
  const kth = tf.slice(tf.topk(scores, k).values, [0, k - 1], [B, 1]); // [B, 1]
  return tf.where(tf.less(scores, kth), tf.fill(scores.shape, -Infinity), scores) as tf.Tensor2D;
}

/**
 * Nucleus filtering: sort each row, keep tokens until the cumulative probability passes p (the
 * token that crosses p stays), send the rest to −∞. scatterND puts the sorted mask back in
 * vocabulary order; it has no gradient in tfjs, and sampling needs none.
 */
function keepTopP(scores: tf.Tensor2D, p: number): tf.Tensor2D {
  const [B, V] = scores.shape;
  const { values: sorted, indices } = tf.topk(scores, V); // descending, [B, V]
  const cumulative = tf.cumsum(tf.softmax(sorted), 1);
  const beyond = tf.cast(tf.greater(cumulative, p), "float32");
  const removeSorted = tf.concat([tf.zeros([B, 1]), tf.slice(beyond, [0, 0], [B, V - 1])], 1); // shift right by one
  const rows = tf.tile(tf.range(0, B, 1, "int32").expandDims(1), [1, V]); // [B, V]
  const coordinates = tf.reshape(tf.stack([rows, indices], -1), [B * V, 2]);
  const remove = tf.scatterND(coordinates, tf.reshape(removeSorted, [B * V]), [B, V]);
  return tf.where(tf.greater(remove, 0), tf.fill(scores.shape, -Infinity), scores) as tf.Tensor2D;
}

/** The first token whose cumulative probability exceeds u (in float64), skipping zeros. */
function drawFromCdf(probabilities: ArrayLike<number>, u: number): number {
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

// END SOLUTION
/**
 * The distribution MiniMind samples the next token from, after temperature, repetition penalty,
 * top-k and top-p, applied as MiniMind applies them (defaults in `SamplingOptions`).
 * `logits`: [V] or [B, V] float32. Returns float32 probabilities of the same shape; each row sums
 * to 1 and filtered tokens get exactly 0. Ties with the k-th largest score survive top-k; the token
 * whose cumulative probability crosses p is kept (so a row always keeps its top token).
 *
 * Align with: model/model_minimind.py:267-278
 */
export function filteredProbabilities(logits: tf.Tensor1D | tf.Tensor2D, opts: SamplingOptions = {}): tf.Tensor {
  // BEGIN SOLUTION
  const { temperature = 0.85, topK = 50, topP = 0.85, repetitionPenalty = 1.0, previousTokens } = opts;
  return tf.tidy(() => {
    const V = logits.shape[logits.shape.length - 1];
    let scores = tf.div(tf.reshape(logits, [-1, V]), temperature) as tf.Tensor2D; // [B, V]
    if (repetitionPenalty !== 1.0 && previousTokens && previousTokens.size > 0) {
      const seen = tf.reshape(previousTokens, [scores.shape[0], -1]) as tf.Tensor2D;
      scores = penaliseSeen(scores, seen, repetitionPenalty);
    }
    if (topK > 0) scores = keepTopK(scores, topK);
    if (topP < 1.0) scores = keepTopP(scores, topP);
    return tf.reshape(tf.softmax(scores), logits.shape);
  });
  // END SOLUTION
}

/**
 * Samples one next token per row from `filteredProbabilities(logits, opts)`, reproducibly: row b
 * uses u_b, the b-th number of one `new Rng(seed)` for the whole call, with inverse-CDF sampling
 * in vocabulary order. The same seed gives the same tokens; a filtered token is never drawn.
 * Returns int32 token ids: a scalar for [V] logits, [B] for [B, V].
 *
 * Align with: model/model_minimind.py:267-278 (the draw: line 278)
 */
export function sampleNextToken(logits: tf.Tensor1D | tf.Tensor2D, opts: SampleOptions): tf.Tensor {
  // BEGIN SOLUTION
  const probabilities = filteredProbabilities(logits, opts);
  const V = logits.shape[logits.shape.length - 1];
  const values = probabilities.dataSync();
  probabilities.dispose();
  const rng = new Rng(opts.seed);
  const tokens = Array.from({ length: values.length / V }, (_, b) => drawFromCdf(values.subarray(b * V, (b + 1) * V), rng.next()));
  return tf.tensor(tokens, logits.shape.slice(0, -1), "int32");
  // END SOLUTION
}
