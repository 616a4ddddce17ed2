/**
 * An RL stage's policy update split over the processes of a data-parallel run
 * (`npm run train -- grpo --workers 2`; lib/train/workers.ts for the processes and their files).
 *
 * A supervised loss is a mean over labels, so each rank's gradient can be weighted by the labels it
 * counted. The RL losses are not that simple: GRPO averages each row over its tokens and then the
 * rows, PPO and the async stage mix token means of a minibatch, DPO pairs row i with row i + n, and
 * a learner's own loss may normalise in a way of its own. Rather than teach the all-reduce each
 * loss's weighting, the update is split at the log-probabilities, where the chain rule makes it
 * exact for any loss L of the batch's [B, R] log-probs ℓ:
 *
 *   ∂L/∂θ = Σ_{b,t} (∂L/∂ℓ_{b,t}) · ∂ℓ_{b,t}/∂θ = Σ_ranks ∂/∂θ Σ_{b ∈ rank} g_{b,t} · ℓ_{b,t},  g = ∂L/∂ℓ.
 *
 * 1. Every rank computes its rows' log-probs (a forward pass, no gradient) at the weights rank 0
 *    wrote: rank r takes rows r, r + N, r + 2N, … (MiniMind's DistributedSampler).
 * 2. Rank 0 puts the [B, R] log-probs together, evaluates the algorithm's loss on them once and
 *    takes g = ∂L/∂ℓ (a few small tensors, no model).
 * 3. Every rank differentiates Σ g·ℓ over its rows (forward and backward); the all-reduce is a plain
 *    sum of the ranks' gradients, with no weights.
 *
 * The price is a second forward pass on each rank's rows: a rank does 1/N of the rows' forward
 * twice and their backward once. Not bit for bit the one-process gradient: the ranks' partial sums
 * are added in another order, and a row's log-probs come from a smaller batch (float rounding; the
 * tolerance is measured in test/rl-workers.test.ts). Sampling, the reference's log-probs, rewards,
 * PPO's critic and AdamW stay in rank 0.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";
import { TrainError } from "../train/errors.js";
import { rankPart, type FromWorker, type GradientWorkers } from "../train/workers.js";
import { rowsLogps, rowsVectorJacobian, splitRows, type PolicyBatch, type PolicyLogpsFunctions, type PolicyLoss, type PolicyStep } from "./policy-batch.js";

/** A worker's answer of the expected kind, or a TrainError that says what came instead. */
function expect<T extends FromWorker["type"]>(m: FromWorker, type: T): Extract<FromWorker, { type: T }> {
  if (m.type !== type) throw new TrainError(`a worker answered ${m.type} where ${type} was expected`);
  return m as Extract<FromWorker, { type: T }>;
}

/**
 * The policy update of `batch` across `pool` (see the module comment): `lossOf` of the whole
 * batch's log-probs, evaluated once here, and its gradient with respect to `model`'s trainable
 * variables, summed over the ranks. Resolves to what `policyGradientsHere` returns.
 */
export async function policyGradientsAcross(pool: GradientWorkers, model: MiniMindTS, fns: PolicyLogpsFunctions, batch: PolicyBatch, lossOf: PolicyLoss): Promise<PolicyStep> {
  const N = pool.worldSize;
  const B = batch.ids.shape[0];
  const variables = model.trainableVariables();
  const sizes = variables.map((v) => v.size);
  const rowsOf = Array.from({ length: N }, (_, r) => rankPart(Array.from({ length: B }, (_, b) => b), r, N));
  const parts = splitRows(batch, rowsOf);
  const workers = Array.from({ length: N - 1 }, (_, i) => i + 1).filter((r) => rowsOf[r].length > 0);

  // 1. Log-probs of every rank's rows at the current weights.
  pool.publishWeights(variables);
  const asked = workers.map((r) => pool.ask(r, { type: "logps", rows: parts[r] }));
  await Promise.all(asked.map((a) => a.sent));
  const perRank = new Map<number, Float32Array>([[0, rowsLogps(model, fns, parts[0])]]);
  (await Promise.all(asked.map((a) => a.reply))).forEach((m, i) => perRank.set(workers[i], expect(m, "logps").values));
  const R = perRank.get(0)!.length / rowsOf[0].length;
  const all = new Float32Array(B * R);
  perRank.forEach((values, r) => rowsOf[r].forEach((b, k) => all.set(values.subarray(k * R, (k + 1) * R), b * R)));

  // 2. The loss of the whole batch and g = ∂L/∂ℓ, here.
  const policyLogps = tf.tensor2d(all, [B, R]);
  const { value, grad } = tf.valueAndGrad(lossOf)(policyLogps);
  const loss = value.dataSync()[0];
  const g = grad.dataSync() as Float32Array;
  const upstream = (r: number) => {
    const out = new Float32Array(rowsOf[r].length * R);
    rowsOf[r].forEach((b, k) => out.set(g.subarray(b * R, (b + 1) * R), k * R));
    return out;
  };

  // 3. Each rank's Σ g·ℓ differentiated; the all-reduce is their sum.
  const vjps = workers.map((r) => pool.ask(r, { type: "vjp", upstream: upstream(r) }));
  await Promise.all(vjps.map((a) => a.sent));
  const sum = rowsVectorJacobian(model, fns, parts[0], upstream(0), variables);
  tf.dispose([value, grad]);
  for (const [i, reply] of vjps.entries()) {
    expect(await reply.reply, "vjp");
    pool.gradientsOf(workers[i], sizes).forEach((part, v) => {
      const out = sum[v];
      for (let j = 0; j < part.length; j++) out[j] += part[j];
    });
  }
  return { loss, grads: variables.map((v, i) => tf.tensor(sum[i], v.shape, "float32")), policyLogps };
}
