/**
 * Parametrised wrong versions of lesson 30's functions. Each mutant file turns on one flaw, so
 * every mutant differs from the reference in exactly one plausible way.
 */
import * as tf from "../../lib/tf.js";
import type { ProxApproxOptions, ProxApproximations, StalenessStats, StalenessSummary } from "../../solutions/lesson-30/prox-approx.js";

export interface ApproxFlaws {
  /** Prompt tokens (version −1) interpolated like generated ones. */
  promptTokensInterpolated?: boolean;
  /** Version-0 tokens treated as prompt tokens (v_b > 0 instead of ≥ 0). */
  versionZeroExcluded?: boolean;
  /** v_prox = currentVersion instead of currentVersion − 1. */
  proximalIsCurrent?: boolean;
  /** linear interpolates the log-probabilities, like loglinear. */
  linearInLogSpace?: boolean;
  /** No 1e-10 inside linear's log. */
  noFloor?: boolean;
  /** The interpolation starts from logprobs: logprobs + α·(old − logprobs). */
  swappedEnds?: boolean;
  /** rollout is the oldLogp tensor itself, not a copy. */
  rolloutNotCopied?: boolean;
}

export function approxVariant(flaws: ApproxFlaws) {
  return (options: ProxApproxOptions): ProxApproximations => {
    const result = approximations(flaws, options);
    if (!flaws.rolloutNotCopied) return result;
    result.rollout.dispose();
    return { ...result, rollout: options.oldLogp };
  };
}

function approximations(flaws: ApproxFlaws, { oldLogp, logprobs, versions, currentVersion }: ProxApproxOptions): ProxApproximations {
  return tf.tidy(() => {
    const vb = tf.cast(versions, "float32");
    const diff = tf.sub(currentVersion, vb);
    const gap = tf.sub(flaws.proximalIsCurrent ? currentVersion : currentVersion - 1, vb);
    const generated = flaws.promptTokensInterpolated ? tf.onesLike(versions).cast("bool") : flaws.versionZeroExcluded ? tf.greater(versions, 0) : tf.greaterEqual(versions, 0);
    const ok = tf.logicalAnd(tf.greater(diff, 0), generated);
    const alpha = tf.clipByValue(tf.where(ok, tf.div(gap, tf.where(ok, diff, tf.onesLike(diff))), tf.zerosLike(vb)), 0, 1);
    const [from, to] = flaws.swappedEnds ? [logprobs, oldLogp] : [oldLogp, logprobs];
    const loglinear = tf.add(from, tf.mul(alpha, tf.sub(to, from)));
    const mixed = tf.add(tf.mul(tf.sub(1, alpha), tf.exp(from)), tf.mul(alpha, tf.exp(to)));
    const linear = flaws.linearInLogSpace ? loglinear : tf.log(flaws.noFloor ? mixed : tf.add(mixed, 1e-10));
    return { loglinear: loglinear as tf.Tensor2D, linear: linear as tf.Tensor2D, rollout: tf.clone(oldLogp) };
  });
}

export interface StalenessFlaws {
  /** Prompt tokens (version −1) counted. */
  promptTokensCounted?: boolean;
  /** The mask ignored: padding counted too. */
  maskIgnored?: boolean;
  /** Proximal staleness measured from currentVersion (the theta value). */
  proximalFromCurrent?: boolean;
  /** Zeros instead of null when no token counts. */
  zerosWhenEmpty?: boolean;
  /** avg divided by every masked-in token, prompt tokens included. */
  meanOverMask?: boolean;
  /** max and min as Math.max(...lag) / Math.min(...lag): a RangeError once the batch holds ~10^5+ tokens. */
  spreadMaxMin?: boolean;
}

export function stalenessVariant(flaws: StalenessFlaws) {
  return (versions: tf.Tensor2D, currentVersion: number, mask: tf.Tensor2D): StalenessStats | null => {
    const v = versions.dataSync();
    const m = mask.dataSync();
    const counted: number[] = [];
    let maskedIn = 0;
    for (let i = 0; i < v.length; i++) {
      if (m[i] || flaws.maskIgnored) maskedIn++;
      if ((m[i] || flaws.maskIgnored) && (v[i] >= 0 || flaws.promptTokensCounted)) counted.push(v[i]);
    }
    if (counted.length === 0) {
      if (!flaws.zerosWhenEmpty) return null;
      const zero = { avg: 0, max: 0, min: 0 };
      return { proximal: zero, theta: { ...zero }, validTokens: 0 };
    }
    const denominator = flaws.meanOverMask ? maskedIn : counted.length;
    const summarise = (lag: number[]): StalenessSummary => ({
      avg: lag.reduce((s, x) => s + x, 0) / denominator,
      max: flaws.spreadMaxMin ? Math.max(...lag) : lag.reduce((a, x) => Math.max(a, x), -Infinity),
      min: flaws.spreadMaxMin ? Math.min(...lag) : lag.reduce((a, x) => Math.min(a, x), Infinity),
    });
    const proximalVersion = flaws.proximalFromCurrent ? currentVersion : currentVersion - 1;
    return {
      proximal: summarise(counted.map((vb) => proximalVersion - vb)),
      theta: summarise(counted.map((vb) => currentVersion - vb)),
      validTokens: counted.length,
    };
  };
}
