/**
 * Lesson 3 — Inference end to end: choosing the next token.
 *
 * Shapes: logits are [V] (one sequence) or [B, V] (a batch), V = vocabSize; the result keeps the
 * leading shape. Read lessons/03-inference-end-to-end.md first; every function cites the MiniMind
 * lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import { Rng } from "../../lib/random.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-3`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-3", "filteredProbabilities");
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
  throw new NotImplementedError("lesson-3", "sampleNextToken");
}
