/**
 * Parametrised wrong versions of lesson 30's mismatchKl and resolveLogps (exercises/lesson-30/
 * logp-sources.ts). Each mutant file turns on one flaw.
 */
import * as tf from "../../lib/tf.js";
import { resolveLogps } from "../../solutions/lesson-30/logp-sources.js";
import type { LogpBatch, LogpConfig, MismatchKl, ResolvedLogps } from "../../solutions/lesson-30/logp-sources.js";

export interface MismatchFlaws {
  /** direct = log r instead of −log r. */
  directSign?: boolean;
  /** dual = e^{−x} − 1 + x (lesson 33's k3 orientation) instead of e^{x} − 1 − x. */
  dualReversed?: boolean;
  /** taylor = (log r)², without the half. */
  taylorNoHalf?: boolean;
  /** Averages over every position, padding included. */
  meanOverAll?: boolean;
  /** Zeros instead of null when nothing is valid. */
  zerosWhenEmpty?: boolean;
  /** dual's ratio r as exp(logprobs) / exp(oldLogp) in float32 tensors: 0/0 for log-probs below −104. */
  ratioAsQuotient?: boolean;
}

export function mismatchVariant(flaws: MismatchFlaws) {
  return (logprobs: tf.Tensor2D, oldLogp: tf.Tensor2D, mask: tf.Tensor2D): MismatchKl | null => {
    const lp = logprobs.dataSync();
    const old = oldLogp.dataSync();
    const m = mask.dataSync();
    let quotient: Float32Array | undefined;
    if (flaws.ratioAsQuotient) {
      const q = tf.tidy(() => tf.div(tf.exp(logprobs), tf.exp(oldLogp)));
      quotient = q.dataSync() as Float32Array;
      q.dispose();
    }
    let direct = 0;
    let taylor = 0;
    let dual = 0;
    let count = 0;
    for (let i = 0; i < m.length; i++) {
      if (!m[i] && !flaws.meanOverAll) continue;
      const x = m[i] ? Math.fround(lp[i] - old[i]) : 0;
      direct += flaws.directSign ? x : -x;
      taylor += flaws.taylorNoHalf ? x * x : (x * x) / 2;
      dual += flaws.dualReversed ? Math.exp(-x) - 1 + x : (quotient ? quotient[i] : Math.exp(x)) - 1 - x;
      count++;
    }
    if (count === 0 || (flaws.meanOverAll && !Array.from(m).some(Boolean))) return flaws.zerosWhenEmpty ? { direct: 0, taylor: 0, dual: 0 } : null;
    return { direct: direct / count, taylor: taylor / count, dual: dual / count };
  };
}

export interface SourceFlaws {
  /** Coupled PPO with recompute_logprob still trains on the engine's log-probs. */
  recomputeIgnored?: boolean;
  /** Decoupled PPO takes the engine's log-probs as the proximal policy (no recomputation used). */
  proximalIsBehave?: boolean;
  /** "metrics" treated like "loglinear": no forward pass, and the loglinear approximation. */
  metricsSkipsForward?: boolean;
  /** loglinear approximates even when a recomputed proximal policy is present. */
  loglinearOverridesRecomputed?: boolean;
  /** No NaN/Inf check on the proximal log-probs. */
  noFiniteCheck?: boolean;
  /** The NaN/Inf check also applied to the behaviour log-probs. */
  behaveFiniteCheck?: boolean;
  /** behave (and a proximal policy taken as is) returned as the batch's own tensors, not clones. */
  returnsInputs?: boolean;
}

export function sourcesVariant(flaws: SourceFlaws) {
  return (config: LogpConfig, batch: LogpBatch): ResolvedLogps => {
    let c = config;
    let b = batch;
    if (flaws.recomputeIgnored && !c.useDecoupledLoss && c.recomputeLogprob) {
      const r = resolveLogps({ ...c, recomputeLogprob: false }, b);
      return { ...r, needsForwardPass: true };
    }
    if (flaws.proximalIsBehave && c.useDecoupledLoss && b.recomputedLogp !== null) b = { ...b, recomputedLogp: b.inferenceLogp };
    if (flaws.metricsSkipsForward && c.useDecoupledLoss && c.proxLogpMethod === "metrics") c = { ...c, proxLogpMethod: "loglinear" };
    if (flaws.loglinearOverridesRecomputed && c.useDecoupledLoss && c.proxLogpMethod === "loglinear") b = { ...b, recomputedLogp: null };
    if (flaws.noFiniteCheck) {
      const clean = (t: tf.Tensor2D | null) => (t === null ? null : (tf.tidy(() => tf.where(tf.isFinite(t), t, tf.fill(t.shape, -1e4))) as tf.Tensor2D));
      const cleaned = { ...b, inferenceLogp: clean(b.inferenceLogp)!, recomputedLogp: clean(b.recomputedLogp) };
      try {
        const r = resolveLogps(c, cleaned);
        return r;
      } finally {
        tf.dispose([cleaned.inferenceLogp, cleaned.recomputedLogp].filter((t): t is tf.Tensor2D => t !== null));
      }
    }
    const r = resolveLogps(c, b);
    if (flaws.returnsInputs) {
      const behave = !c.useDecoupledLoss && c.recomputeLogprob ? b.recomputedLogp! : b.inferenceLogp;
      const given = !c.useDecoupledLoss ? behave : b.recomputedLogp;
      const same = (x: tf.Tensor, y: tf.Tensor | null) => y !== null && x.shape.join() === y.shape.join() && x.dataSync().every((v, i) => Object.is(v, y.dataSync()[i]));
      const out = { ...r, behave: same(r.behave, behave) ? behave : r.behave, proximal: same(r.proximal, given) ? given! : r.proximal };
      tf.dispose([r.behave, r.proximal].filter((t) => t !== out.behave && t !== out.proximal));
      return out;
    }
    if (flaws.behaveFiniteCheck && r.behave.dataSync().some((x) => !Number.isFinite(x))) {
      tf.dispose([r.behave, r.proximal]);
      throw new Error(`prox_logp contains NaN or Inf with prox_logp_method='${c.proxLogpMethod}'. This indicates computation failed.`);
    }
    return r;
  };
}
