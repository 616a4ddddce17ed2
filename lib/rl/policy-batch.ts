/**
 * The policy update every RL stage makes: the per-token log-probabilities of a batch of rows under
 * the policy (lesson 25's perTokenLogps, or lesson 22's tokenLogProbs for DPO's pairs), a loss
 * computed from them, and the loss's gradient with respect to the policy's weights. One process
 * differentiates it in one pass (`policyGradientsHere`); a data-parallel run splits the rows
 * between processes (lib/rl/policy-workers.ts), which need the rows as plain arrays (`PolicyRows`).
 * No files and no Node APIs: the browser's GRPO page runs this module too.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";

/** The lesson functions that read a batch's log-probabilities from the logits, by name → lesson. */
export const POLICY_LOGPS_HOMES = { perTokenLogps: "lesson-25", tokenLogProbs: "lesson-22" } as const;

/** POLICY_LOGPS_HOMES' functions, typed (a run resolves the ones it uses). */
export type PolicyLogpsFunctions = {
  /** Lesson 25: [B, T, V] logits, [B, T] ids, R → [B, R] log π of the last R ids. */
  perTokenLogps?: (logits: tf.Tensor3D, ids: tf.Tensor2D, R: number) => tf.Tensor2D;
  /** Lesson 22: [B, T, V] logits, [B, T] labels → [B, T] log π of each label. */
  tokenLogProbs?: (logits: tf.Tensor3D, labels: tf.Tensor2D) => tf.Tensor2D;
};

/** The rows of one policy update, as tensors: what the model reads and how its log-probs are read. */
export interface PolicyBatch {
  /** [B, T] int32 token ids. */
  ids: tf.Tensor2D;
  /** [B, T] 1 for a token, 0 for padding; none for rows without padding (DPO's pairs). */
  attentionMask?: tf.Tensor2D;
  /** The last `lastTokens` ids' log-probs (perTokenLogps), or each position's label's (tokenLogProbs). */
  read: { lastTokens: number } | { labels: tf.Tensor2D };
}

/** The same rows as typed arrays, row-major (what a worker process is sent). */
export interface PolicyRows {
  rows: number;
  length: number;
  ids: Int32Array;
  attentionMask?: Float32Array;
  lastTokens?: number;
  /** [rows, length] labels for tokenLogProbs. */
  labels?: Int32Array;
}

/** One update's result: the loss, its gradient per variable, and the policy's [B, R] log-probs (for the step's metrics). */
export interface PolicyStep {
  loss: number;
  grads: tf.Tensor[];
  policyLogps: tf.Tensor2D;
}

/** The loss of an update, from the policy's [B, R] log-probs of the whole batch. */
export type PolicyLoss = (policyLogps: tf.Tensor2D) => tf.Scalar;

/** [B, R] log-probs of `batch` under `model` in training mode (with gradient when taped). */
export function policyLogps(model: MiniMindTS, fns: PolicyLogpsFunctions, batch: PolicyBatch): tf.Tensor2D {
  return tf.tidy(() => {
    const { logits } = model.forward(batch.ids, { attentionMask: batch.attentionMask, training: true });
    if ("labels" in batch.read) return fns.tokenLogProbs!(logits, batch.read.labels);
    return fns.perTokenLogps!(logits, batch.ids, batch.read.lastTokens);
  });
}

/**
 * The update in one process: `lossOf` of the policy's log-probs and its gradient with respect to
 * `variables`, in one forward and one backward pass. `lossOf` runs once, under the tape.
 */
export function policyGradientsHere(model: MiniMindTS, fns: PolicyLogpsFunctions, batch: PolicyBatch, variables: tf.Variable[], lossOf: PolicyLoss): PolicyStep {
  let kept: tf.Tensor2D | undefined;
  const { value, grads } = tf.variableGrads(() => {
    const logps = policyLogps(model, fns, batch);
    kept = tf.keep(tf.clone(logps));
    return lossOf(logps);
  }, variables);
  const loss = value.dataSync()[0];
  value.dispose();
  return { loss, grads: variables.map((v) => grads[v.name]), policyLogps: kept! };
}

/** Rows `parts[k]` of `batch` as typed arrays, one PolicyRows per part (each tensor read once). */
export function splitRows(batch: PolicyBatch, parts: readonly (readonly number[])[]): PolicyRows[] {
  const [, T] = batch.ids.shape;
  const ids = batch.ids.dataSync() as Int32Array;
  const mask = batch.attentionMask?.dataSync() as Float32Array | undefined;
  const labels = "labels" in batch.read ? (batch.read.labels.dataSync() as Int32Array) : undefined;
  const take = <A extends Int32Array | Float32Array>(all: A, rows: readonly number[], make: (n: number) => A): A => {
    const out = make(rows.length * T);
    rows.forEach((row, k) => out.set(all.subarray(row * T, (row + 1) * T), k * T));
    return out;
  };
  return parts.map((rows) => ({
    rows: rows.length,
    length: T,
    ids: take(ids, rows, (n) => new Int32Array(n)),
    ...(mask ? { attentionMask: take(mask, rows, (n) => new Float32Array(n)) } : {}),
    ...("lastTokens" in batch.read ? { lastTokens: batch.read.lastTokens } : { labels: take(labels!, rows, (n) => new Int32Array(n)) }),
  }));
}

/** `rows` as a PolicyBatch of new tensors (the caller disposes them with `disposeBatch`). */
export function batchOfRows(rows: PolicyRows): PolicyBatch {
  const shape: [number, number] = [rows.rows, rows.length];
  return {
    ids: tf.tensor2d(rows.ids, shape, "int32"),
    ...(rows.attentionMask ? { attentionMask: tf.tensor2d(rows.attentionMask, shape, "float32") } : {}),
    read: rows.labels ? { labels: tf.tensor2d(rows.labels, shape, "int32") } : { lastTokens: rows.lastTokens! },
  };
}

/** Frees the tensors of a batch made by `batchOfRows`. */
export function disposeBatch(b: PolicyBatch): void {
  tf.dispose([b.ids, ...(b.attentionMask ? [b.attentionMask] : []), ...("labels" in b.read ? [b.read.labels] : [])]);
}

/** [rows, R] log-probs of `rows` under `model`, as numbers (no gradient: the first pass of a split update). */
export function rowsLogps(model: MiniMindTS, fns: PolicyLogpsFunctions, rows: PolicyRows): Float32Array {
  const batch = batchOfRows(rows);
  const logps = policyLogps(model, fns, batch);
  const values = Float32Array.from(logps.dataSync() as Float32Array);
  tf.dispose(logps);
  disposeBatch(batch);
  return values;
}

/**
 * The gradient of Σ_{b,t} upstream[b,t] · log π(rows)[b,t] with respect to `variables`: with
 * `upstream` = ∂L/∂log π of the whole batch's loss L at these rows, the chain rule's share of these
 * rows in ∂L/∂θ (the second pass of a split update). As float32 arrays in `variables` order.
 */
export function rowsVectorJacobian(model: MiniMindTS, fns: PolicyLogpsFunctions, rows: PolicyRows, upstream: Float32Array, variables: tf.Variable[]): Float32Array[] {
  const batch = batchOfRows(rows);
  const { value, grads } = tf.variableGrads(() => {
    const logps = policyLogps(model, fns, batch);
    return tf.sum(tf.mul(logps, tf.tensor2d(upstream, logps.shape)));
  }, variables);
  const out = variables.map((v) => Float32Array.from(grads[v.name].dataSync() as Float32Array));
  tf.dispose([value, ...Object.values(grads)]);
  disposeBatch(batch);
  return out;
}
