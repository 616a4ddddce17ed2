/**
 * GRPO and CISPO (trainer/train_grpo.py:71-150): G samples a prompt from the current policy,
 * verifiable rewards, advantages standardised within each group (lesson 24), and one update on the
 * clipped (GRPO) or capped-weight (CISPO) loss with β·KL to the frozen reference (lesson 24), all
 * through the resolver. Rollout masks: lesson 24's grpoCompletionMask; log-probs: lesson 25.
 */
import * as tf from "../../tf.js";
import { disposeRollout, sequenceLogps, type RolloutFunctions } from "../rollout.js";
import type { RlAlgorithm } from "../run.js";
import { maskedMeanValue, ratioDiagnostics, sampledStepMetrics, sampleAndReward, type Diagnostics } from "./common.js";

type GrpoFns = RolloutFunctions &
  Diagnostics & {
    groupRelativeAdvantages: (rewards: tf.Tensor1D, g: number, eps?: number) => tf.Tensor1D;
    grpoCompletionMask: (ids: tf.Tensor2D, pad: tf.Tensor2D, eos: number) => tf.Tensor2D;
    tokenKlPenalty: (policy: tf.Tensor2D, ref: tf.Tensor2D) => tf.Tensor2D;
    grpoPolicyLoss: (p: tf.Tensor2D, o: tf.Tensor2D, r: tf.Tensor2D, a: tf.Tensor1D, m: tf.Tensor2D, eps: number, beta: number) => tf.Scalar;
    cispoPolicyLoss: (p: tf.Tensor2D, o: tf.Tensor2D, r: tf.Tensor2D, a: tf.Tensor1D, m: tf.Tensor2D, epsHigh: number, beta: number) => tf.Scalar;
  };

const grpo: RlAlgorithm = {
  name: "grpo",
  summary: "GRPO/CISPO: G samples a prompt, group-relative advantages, clipped or capped-weight loss + β·KL to the reference",
  weightName: "grpo",
  functions: {
    groupRelativeAdvantages: "lesson-24",
    grpoCompletionMask: "lesson-24",
    tokenKlPenalty: "lesson-24",
    grpoPolicyLoss: "lesson-24",
    cispoPolicyLoss: "lesson-24",
  },
  defaults: {},
  async step(ctx, step, lr) {
    const s = ctx.settings;
    const fns = ctx.fns as unknown as GrpoFns;
    const { records, r, answered, rewards } = sampleAndReward(ctx, step, { perTokenLogps: fns.perTokenLogps, responseMask: fns.grpoCompletionMask });
    const R = r.completionIds.shape[1];
    const refLogps = sequenceLogps(ctx.reference, fns, r.sequences, r.attentionMask, R);
    const rewardT = tf.tensor1d(rewards);
    const advantages = fns.groupRelativeAdvantages(rewardT, s.numGenerations);
    const { loss, grads, policyLogps } = await ctx.policyGradients({ ids: r.sequences, attentionMask: r.attentionMask, read: { lastTokens: R } }, (logps) =>
      s.lossType === "cispo"
        ? fns.cispoPolicyLoss(logps, r.oldLogps, refLogps, advantages, r.completionMask, s.epsilonHigh, s.beta)
        : fns.grpoPolicyLoss(logps, r.oldLogps, refLogps, advantages, r.completionMask, s.epsilon, s.beta),
    );
    const gradNorm = Number.isFinite(loss) ? ctx.applyGrads(ctx.optimizer, grads, lr) : NaN;
    const kl = tf.tidy(() => maskedMeanValue(fns.tokenKlPenalty(policyLogps, refLogps), r.completionMask));
    const diag = ratioDiagnostics(fns, policyLogps, r.oldLogps, r.completionMask, s.epsilon);
    const metrics = sampledStepMetrics(r, answered, rewards, { loss, klRef: kl, clipFraction: diag.clipFraction }, { grad_norm: gradNorm, zero_adv_groups: zeroGroups(rewards, s.numGenerations) });
    tf.dispose([...grads, policyLogps, refLogps, rewardT, advantages]);
    disposeRollout(r);
    return metrics;
  },
};

/** Groups whose rewards are all equal (no learning signal from them). */
function zeroGroups(rewards: number[], g: number): number {
  let n = 0;
  for (let i = 0; i < rewards.length; i += g) if (rewards.slice(i, i + g).every((x) => x === rewards[i])) n++;
  return n;
}

export default grpo;
