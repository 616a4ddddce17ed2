/**
 * Lesson 23: the reference maskedGae (one read, a typed-array recursion, one write) against the
 * naive formulation a learner often writes first: one tensor op chain per timestep.
 */
import * as tf from "../../lib/tf.js";
import { maskedGae, type GaeResult } from "../../solutions/lesson-23/ppo.js";
import { Rng } from "../../lib/random.js";
import { formatTimings, timeIt } from "./measure.js";

/** GAE as a per-timestep loop over [B] column tensors, then masked normalisation with tensor ops. */
function naiveTensorLoopGae(rewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number): GaeResult {
  return tf.tidy(() => {
    const R = values.shape[1];
    const rCols = tf.unstack(rewards, 1);
    const vCols = tf.unstack(values, 1);
    let last = tf.zerosLike(rCols[0]);
    const reversed: tf.Tensor[] = [];
    for (let t = R - 1; t >= 0; t--) {
      const next = t < R - 1 ? vCols[t + 1] : tf.zerosLike(vCols[t]);
      const delta = rCols[t].add(next.mul(gamma)).sub(vCols[t]);
      last = delta.add(last.mul(gamma * lam));
      reversed.push(last);
    }
    const adv = tf.stack(reversed.reverse(), 1) as tf.Tensor2D;
    const returns = adv.add(values);
    const count = tf.maximum(mask.sum(), 1);
    const mean = adv.mul(mask).sum().div(count);
    const variance = adv.sub(mean).square().mul(mask).sum().div(count);
    return { advantages: adv.sub(mean).mul(tf.rsqrt(variance.add(1e-8))).mul(mask) as tf.Tensor2D, returns: returns as tf.Tensor2D };
  });
}

export default function bench(): string {
  const [B, R] = [64, 1024];
  const rng = new Rng(7);
  const rewards = tf.tensor2d(rng.normals(B * R), [B, R]);
  const values = tf.tensor2d(rng.normals(B * R), [B, R]);
  const mask = tf.tensor2d(Float32Array.from({ length: B * R }, (_, i) => (i % R < R - (i / R) * 7 ? 1 : 0)), [B, R]);
  const run = (f: typeof maskedGae) => () => {
    const out = f(rewards, values, mask, 0.99, 0.95);
    out.advantages.dataSync();
    out.advantages.dispose();
    out.returns.dispose();
  };
  const agreement = tf.tidy(() => {
    const a = maskedGae(rewards, values, mask, 0.99, 0.95);
    const b = naiveTensorLoopGae(rewards, values, mask, 0.99, 0.95);
    return Math.max(tf.max(tf.abs(tf.sub(a.advantages, b.advantages))).dataSync()[0], tf.max(tf.abs(tf.sub(a.returns, b.returns))).dataSync()[0]);
  });
  const timings = [timeIt("reference maskedGae (typed arrays)", run(maskedGae), 21), timeIt("naive per-timestep tensor loop", run(naiveTensorLoopGae), 7)];
  tf.dispose([rewards, values, mask]);
  const title = `maskedGae at [${B}, ${R}] on the ${tf.getBackend()} backend (the two agree to ${agreement.toExponential(1)})`;
  return formatTimings(title, timings);
}
