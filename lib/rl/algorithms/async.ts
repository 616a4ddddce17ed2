/**
 * Asynchronous RL as AReaL trains it, on one CPU (`npm run train -- async --staleness K`): the
 * batch of step t comes from version max(0, t − 1 − K) of the weights (lib/rl/async-scheduler.ts),
 * G samples a prompt with group-normalised advantages (lesson 24, AReaL's reward_norm at group
 * level), and AReaL's grpo_loss_fn (areal/trainer/ppo/actor.py:429-480 @ 4aef98d8): proximal
 * log-probs recomputed by a forward of the current weights (areal/trainer/rl_trainer.py:643-655) or
 * approximated from the versions (lesson 30, `--prox approx`), the M2PO mask when asked (lesson 31,
 * actor.py:446-448), then the decoupled PPO loss (lesson 29) with the behaviour weight
 * π_prox/π_behave under AReaL's rejection-sampling default (token, ratio, mask above 5:
 * areal/api/cli_args.py:1252-1300), + β·KL to the frozen reference as the GRPO stage adds it. The
 * batch is split into AReaL's default 4 minibatches (ppo_n_minibatches, cli_args.py:1393-1395), one
 * optimiser step each.
 */
import * as tf from "../../tf.js";
import { MiniMindTS } from "../../model/model.js";
import { TrainError } from "../../train/errors.js";
import { behaviourVersion, modelledAsyncSeconds, VersionStore, type AsyncSettings } from "../async-scheduler.js";
import { disposeRollout, sequenceLogps, type RolloutFunctions } from "../rollout.js";
import type { RlAlgorithm, RlContext } from "../run.js";
import type { RlSettings } from "../settings.js";
import { maskedMeanValue, mean, ratioDiagnostics, sampledStepMetrics, sampleAndReward, type Diagnostics } from "./common.js";

type T2 = tf.Tensor2D;
type AsyncFns = RolloutFunctions &
  Diagnostics & {
    groupRelativeAdvantages: (rewards: tf.Tensor1D, g: number, eps?: number) => tf.Tensor1D;
    grpoCompletionMask: RolloutFunctions["responseMask"];
    tokenKlPenalty: (policy: T2, ref: T2) => T2;
    decoupledPpoLoss: (o: {
      logprobs: T2; proximalLogprobs: T2; oldLogprobs: T2; advantages: T2; lossMask: T2; epsClip: number;
      rejectionSampling?: { action: "mask" | "clamp"; upper: number };
    }) => { loss: tf.Scalar; clipMask: T2; dualClipMask: T2; importanceWeight: T2 };
    proxLogpApproximations: (o: { oldLogp: T2; logprobs: T2; versions: T2; currentVersion: number }) => { loglinear: T2; linear: T2; rollout: T2 };
    stalenessStats: (versions: T2, currentVersion: number, mask: T2) => { theta: { avg: number; max: number; min: number }; proximal: { avg: number }; validTokens: number } | null;
    m2poMask: (oldLogp: T2, proxLogp: T2, lossMask: T2, threshold: number) => T2;
  };

export type AsyncRunSettings = RlSettings & AsyncSettings;

/** What the scheduler did at one step (tests watch it). */
export interface AsyncObservation {
  step: number;
  /** v_θ: the version the step trains (t − 1). */
  currentVersion: number;
  /** The version whose weights sampled the batch. */
  behaviourVersion: number;
  /** The model that sampled (the policy itself when the versions agree). */
  sampler: MiniMindTS;
  policy: MiniMindTS;
}

export const ASYNC_DEFAULTS: AsyncSettings = { staleness: 0, proxMethod: "approx", m2po: false, m2Threshold: 0.04, behaveWeightCap: 5 };

/** Counts of one step's minibatches, summed. */
interface Tally {
  valid: number;
  kept: number;
  capped: number;
  clipped: number;
}

/** `sum(mask)` of a bool or 0/1 tensor, as a number. */
const count = (mask: tf.Tensor): number => tf.tidy(() => tf.sum(tf.cast(mask, "float32")).dataSync()[0]);

/** The async stage; `observe` sees every step's sampler before it samples. */
export function createAsyncAlgorithm(opts: { observe?: (o: AsyncObservation) => void } = {}): RlAlgorithm {
  let store: VersionStore | undefined;
  let generation: number[] = [];
  let training: number[] = [];
  let staleness = 0;
  const defaults: Partial<AsyncRunSettings> = { ...ASYNC_DEFAULTS, miniBatchSize: 16 };
  return {
    name: "async",
    summary: "asynchronous decoupled PPO (AReaL): batches from a policy K versions behind, proximal log-probs recomputed or approximated, optional M2PO",
    weightName: "async",
    functions: {
      groupRelativeAdvantages: "lesson-24",
      grpoCompletionMask: "lesson-24",
      tokenKlPenalty: "lesson-24",
      decoupledPpoLoss: "lesson-29",
      proxLogpApproximations: "lesson-30",
      stalenessStats: "lesson-30",
      m2poMask: "lesson-31",
    },
    defaults,
    setup(ctx: RlContext) {
      const s = ctx.settings as AsyncRunSettings;
      generation = [];
      training = [];
      staleness = s.staleness;
      if (s.staleness > 0) store = new VersionStore(new MiniMindTS(ctx.policy.config, ctx.policy.params, { pieces: ctx.policy.pieces }));
      const rows = s.promptsPerStep * s.numGenerations;
      ctx.log(
        `Async: staleness K = ${s.staleness} (step t samples with version max(0, t − 1 − K); ${s.staleness + 1} weight snapshot${s.staleness ? "s" : ""} held), ` +
          `proximal log-probs ${s.proxMethod === "approx" ? "approximated (lesson 30, loglinear; no extra forward)" : "recomputed (a forward of the current weights)"}, ` +
          `M2PO ${s.m2po ? `on (τ ${s.m2Threshold})` : "off"}, behaviour weight masked above ${s.behaveWeightCap}, ${Math.ceil(rows / Math.max(1, Math.min(s.miniBatchSize, rows)))} minibatches a step`,
      );
      ctx.log("Async: generation and training run one after the other here; run.json also gives the wall time of one generator and one trainer side by side, modelled from the measured per-step times");
    },
    async step(ctx, step, lr) {
      const s = ctx.settings as AsyncRunSettings;
      const fns = ctx.fns as unknown as AsyncFns;
      const vTheta = step - 1;
      const vBehave = behaviourVersion(step, s.staleness);

      // The trainer publishes version v_θ (part of training); the generator loads version v_b and samples.
      let t0 = performance.now();
      store?.save(vTheta, ctx.policy);
      store?.prune(vBehave);
      let trainMs = performance.now() - t0;
      t0 = performance.now();
      if (vBehave !== vTheta && !store?.versions().includes(vBehave)) throw new TrainError(`async step ${step}: no weights of version ${vBehave} to sample with (the stage keeps its snapshots in memory only and cannot resume)`);
      const sampler = vBehave === vTheta ? ctx.policy : store!.model(vBehave);
      opts.observe?.({ step, currentVersion: vTheta, behaviourVersion: vBehave, sampler, policy: ctx.policy });
      const { r, answered, rewards } = sampleAndReward({ ...ctx, policy: sampler }, step, { perTokenLogps: fns.perTokenLogps, responseMask: fns.grpoCompletionMask });
      const genMs = performance.now() - t0;

      t0 = performance.now();
      const [B, R] = r.completionIds.shape;
      const validMask = tf.cast(r.completionMask, "bool") as T2;
      const refLogps = sequenceLogps(ctx.reference, fns, r.sequences, r.attentionMask, R);
      // AReaL's compute_logp before the update: the proximal policy is the weights the step starts from.
      const recomputed = s.proxMethod === "recompute" ? sequenceLogps(ctx.policy, fns, r.sequences, r.attentionMask, R) : null;
      const versions = tf.fill([B, R], vBehave, "int32") as T2;
      const stale = fns.stalenessStats(versions, vTheta, validMask);
      const rewardT = tf.tensor1d(rewards);
      const advantages = tf.tidy(() => tf.mul(tf.expandDims(fns.groupRelativeAdvantages(rewardT, s.numGenerations), 1), tf.onesLike(r.completionMask))) as T2;

      const mb = Math.max(1, Math.min(s.miniBatchSize, B));
      const tally: Tally = { valid: 0, kept: 0, capped: 0, clipped: 0 };
      const losses: number[] = [], klRefs: number[] = [], clips: number[] = [], approxKls: number[] = [], norms: number[] = [];
      for (let i = 0; i < B; i += mb) {
        const n = Math.min(mb, B - i);
        const rows = <X extends tf.Tensor>(x: X) => tf.slice(x, [i, 0], [n, x.shape[1]!]) as unknown as X;
        const [seq, att, old, ref, adv, valid, ver, floatMask] = [r.sequences, r.attentionMask, r.oldLogps, refLogps, advantages, validMask, versions, r.completionMask].map(rows);
        const given = recomputed ? rows(recomputed) : null;
        let prox: T2 | undefined;
        const g = await ctx.policyGradients({ ids: seq, attentionMask: att, read: { lastTokens: R } }, (logps) => {
          // AReaL approximates from logprobs.detach() (actor.py:441): the values, not the gradient.
          const p = given ?? approximateProx(fns, old, logps, ver, vTheta);
          prox = tf.keep(tf.clone(p));
          const lossMask = s.m2po ? fns.m2poMask(old, p, valid, s.m2Threshold) : valid;
          tally.valid += count(valid);
          tally.kept += count(lossMask);
          tally.capped += count(tf.logicalAnd(valid, tf.greater(tf.sub(p, old), Math.log(s.behaveWeightCap))));
          const res = fns.decoupledPpoLoss({ logprobs: logps, proximalLogprobs: p, oldLogprobs: old, advantages: adv, lossMask, epsClip: s.clipEpsilon, rejectionSampling: { action: "mask", upper: s.behaveWeightCap } });
          tally.clipped += count(res.clipMask);
          const kl = tf.div(tf.sum(tf.mul(fns.tokenKlPenalty(logps, ref), floatMask)), tf.maximum(tf.sum(floatMask), 1));
          return tf.add(res.loss, tf.mul(s.beta, kl)) as tf.Scalar;
        });
        const diag = ratioDiagnostics(fns, g.policyLogps, prox!, floatMask, s.clipEpsilon);
        klRefs.push(tf.tidy(() => maskedMeanValue(fns.tokenKlPenalty(g.policyLogps, ref), floatMask)));
        if (Number.isFinite(g.loss)) norms.push(ctx.applyGrads(ctx.optimizer, g.grads, lr));
        losses.push(g.loss);
        clips.push(diag.clipFraction);
        approxKls.push(diag.approxKl);
        tf.dispose([...g.grads, g.policyLogps, prox!, seq, att, old, ref, adv, valid, ver, floatMask, ...(given ? [given] : [])]);
      }
      trainMs += performance.now() - t0;
      generation.push(genMs / 1000);
      training.push(trainMs / 1000);

      const metrics = sampledStepMetrics(
        r,
        answered,
        rewards,
        { loss: mean(losses), klRef: mean(klRefs), clipFraction: mean(clips) },
        {
          behave_version: vBehave,
          staleness: stale?.theta.avg ?? 0,
          staleness_max: stale?.theta.max ?? 0,
          behave_capped: tally.valid ? tally.capped / tally.valid : 0,
          m2po_masked: tally.valid ? 1 - tally.kept / tally.valid : 0,
          areal_clip: tally.kept ? tally.clipped / tally.kept : 0,
          approx_kl: mean(approxKls),
          grad_norm: norms.length ? mean(norms) : NaN,
          gen_s: genMs / 1000,
          train_s: trainMs / 1000,
        },
      );
      tf.dispose([validMask, refLogps, versions, rewardT, advantages, ...(recomputed ? [recomputed] : [])]);
      disposeRollout(r);
      return metrics;
    },
    report({ wallSeconds, log }) {
      const gen = generation.reduce((a, b) => a + b, 0);
      const train = training.reduce((a, b) => a + b, 0);
      const modelledSteps = modelledAsyncSeconds(generation, training, staleness);
      // Setup, evaluation and saving are not overlapped: only the steps' time is replaced.
      const modelledWall = wallSeconds - (gen + train) + modelledSteps;
      const r1 = (x: number) => Number(x.toFixed(1));
      log(`  wall time: measured ${r1(wallSeconds)} s (generation ${r1(gen)} s + training ${r1(train)} s, one after the other, plus setup and evaluation)`);
      log(`  one generator and one trainer side by side would need ${r1(modelledWall)} s at staleness ${staleness} (MODELLED from the measured per-step times, not measured)`);
      return {
        async: {
          staleness,
          measuredWallSeconds: r1(wallSeconds),
          generationSeconds: r1(gen),
          trainingSeconds: r1(train),
          modelledAsyncStepSeconds: r1(modelledSteps),
          modelledAsyncWallSeconds: r1(modelledWall),
          modelledNote:
            "modelledAsync* is not measured: it is computed from the measured per-step generation and training seconds for one generator and one trainer running side by side (lib/rl/async-scheduler.ts modelledAsyncSeconds); setup, evaluation and saving are counted as measured",
        },
      };
    },
    dispose() {
      store?.dispose();
      store = undefined;
    },
  };
}

/** Lesson 30's loglinear stand-in for log π_prox from the values of `logps` (no gradient through it). */
function approximateProx(fns: AsyncFns, old: T2, logps: T2, versions: T2, currentVersion: number): T2 {
  const detached = tf.tensor2d(logps.dataSync() as Float32Array, logps.shape);
  const a = fns.proxLogpApproximations({ oldLogp: old, logprobs: detached, versions, currentVersion });
  tf.dispose([detached, a.linear, a.rollout]);
  return a.loglinear;
}

export default createAsyncAlgorithm();
