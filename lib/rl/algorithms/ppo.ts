/**
 * PPO (trainer/train_ppo.py:78-260): one sample a prompt from the actor, the reward on the last
 * response token, a critic (a copy of the start weights with a value head on the final hidden
 * states, train_ppo.py:36-48) for values, GAE, then `updateIters` passes of minibatches over the
 * rollout with the clipped surrogate + kl_coef·KL to the reference and the clipped value loss,
 * stopping a rollout's passes once lesson 25's approx-KL exceeds early_stop_kl. Lesson 23's five
 * functions, lesson 25's mask, log-probs and diagnostics, all through the resolver. Minibatch
 * orders are seeded by the step, so a run is reproducible and resumes bit-exactly (saveState: the
 * critic's weights and its AdamW moments and step).
 */
import * as tf from "../../tf.js";
import { MiniMindTS } from "../../model/model.js";
import { AdamW } from "../../model/train.js";
import type { StoredTensor } from "../../model/safetensors.js";
import { epochOrder } from "../../train/data.js";
import { TrainError } from "../../train/errors.js";
import { disposeRollout, sequenceLogps, type RolloutFunctions } from "../rollout.js";
import type { RlAlgorithm, RlContext } from "../run.js";
import { mean, ratioDiagnostics, sampledStepMetrics, sampleAndReward, type Diagnostics } from "./common.js";

type PpoFns = Diagnostics & {
  perTokenLogps: RolloutFunctions["perTokenLogps"];
  ppoResponseMask: RolloutFunctions["responseMask"];
  responseLogpPositions: (promptLens: tf.Tensor1D, responseLen: number) => tf.Tensor2D;
  maskedGae: (rewards: tf.Tensor2D, values: tf.Tensor2D, mask: tf.Tensor2D, gamma: number, lam: number) => { advantages: tf.Tensor2D; returns: tf.Tensor2D };
  ppoPolicyLoss: (n: tf.Tensor2D, o: tf.Tensor2D, a: tf.Tensor2D, m: tf.Tensor2D, clip: number) => tf.Scalar;
  referenceKlPenalty: (p: tf.Tensor2D, r: tf.Tensor2D, m: tf.Tensor2D) => tf.Scalar;
  clippedValueLoss: (v: tf.Tensor2D, o: tf.Tensor2D, ret: tf.Tensor2D, m: tf.Tensor2D, c: number) => tf.Scalar;
};

/** The critic: a MiniMindTS body and a value head (weight [H], bias) on its final hidden states. */
interface Critic {
  body: MiniMindTS;
  head: tf.Variable;
  bias: tf.Variable;
  optimizer: AdamW;
  variables: tf.Variable[];
}

let critic: Critic | undefined;

/** The critic's variables by name, in `critic.variables` order (the body's MiniMind names, then the head). */
const criticNames = (c: Critic) => [...Object.keys(c.body.params), "value_head.weight", "value_head.bias"];

/** Values [B, R] at `positions` (lesson 23's responseLogpPositions): V(s) read where each token was predicted. */
function criticValues(c: Critic, sequences: tf.Tensor2D, attentionMask: tf.Tensor2D, positions: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const out = c.body.forward(sequences, { attentionMask, returnHidden: true });
    const [B, T, H] = out.hidden!.shape;
    const values = tf.add(tf.reshape(tf.matMul(tf.reshape(out.hidden!, [B * T, H]), tf.reshape(c.head, [H, 1])), [B * T]), c.bias); // [B·T]
    const R = positions.shape[1];
    const flat = tf.add(positions, tf.mul(tf.range(0, B, 1, "int32").expandDims(1), tf.scalar(T, "int32"))); // b·T + pos
    return tf.reshape(tf.gather(values, tf.reshape(flat, [B * R])), [B, R]) as tf.Tensor2D;
  });
}

const ppo: RlAlgorithm = {
  name: "ppo",
  summary: "PPO: actor, critic (value head), frozen reference; GAE, clipped surrogate + KL, clipped value loss, approx-KL early stop",
  weightName: "ppo_actor",
  functions: {
    ppoResponseMask: "lesson-25",
    responseLogpPositions: "lesson-23",
    maskedGae: "lesson-23",
    ppoPolicyLoss: "lesson-23",
    referenceKlPenalty: "lesson-23",
    clippedValueLoss: "lesson-23",
  },
  // One sample a prompt; as many samples a step as GRPO's 8 × 8; kl_coef 0.02 (train_ppo.py:332).
  defaults: { promptsPerStep: 64, numGenerations: 1, beta: 0.02 },
  setup(ctx: RlContext) {
    const weights = Object.fromEntries(Object.entries(ctx.reference.params).map(([n, v]) => [n, v as tf.Tensor]));
    const body = new MiniMindTS(ctx.reference.config, weights, { pieces: ctx.reference.pieces });
    const H = ctx.reference.config.hiddenSize;
    const head = tf.variable(tf.zeros([H]), true, "critic.value_head.weight");
    const bias = tf.variable(tf.zeros([]), true, "critic.value_head.bias");
    const variables = [...body.trainableVariables(), head, bias];
    critic = { body, head, bias, variables, optimizer: new AdamW(variables) };
    ctx.log(`Critic: a copy of the start weights + a value head (${H} + 1), critic lr ${ctx.settings.criticLearningRate}`);
  },
  async step(ctx, step, lr) {
    const s = ctx.settings;
    const c = critic!;
    const fns = ctx.fns as unknown as PpoFns;
    const criticLr = (lr * s.criticLearningRate) / s.learningRate; // the same cosine, scaled
    const { records, r, answered, rewards } = sampleAndReward(ctx, step, { perTokenLogps: fns.perTokenLogps, responseMask: fns.ppoResponseMask });
    const [B, R] = r.completionIds.shape;
    const refLogps = sequenceLogps(ctx.reference, fns, r.sequences, r.attentionMask, R);
    const promptLens = tf.fill([B], r.promptLength, "int32") as tf.Tensor1D;
    const positions = fns.responseLogpPositions(promptLens, R);
    const oldValues = tf.tidy(() => tf.mul(criticValues(c, r.sequences, r.attentionMask, positions), r.completionMask)) as tf.Tensor2D;
    // The reward sits on each response's last kept token (train_ppo.py:135-137).
    const tr = new Float32Array(B * R);
    r.lengths.forEach((len, b) => {
      if (len > 0) tr[b * R + len - 1] = rewards[b];
    });
    const tokenRewards = tf.tensor2d(tr, [B, R]);
    const gae = fns.maskedGae(tokenRewards, oldValues, r.completionMask, s.gamma, s.lam);

    const mb = Math.max(1, Math.min(s.miniBatchSize, B));
    const losses: number[] = [];
    const valueLosses: number[] = [];
    const kls: number[] = [];
    const klRefs: number[] = [];
    const clips: number[] = [];
    let stopped = false;
    let updates = 0;
    const rows = (t: tf.Tensor, idx: tf.Tensor1D) => tf.gather(t, idx) as tf.Tensor2D;
    for (let it = 0; it < s.updateIters && !stopped; it++) {
      const perm = epochOrder(B, s.seed * 100_003 + step * s.updateIters, it);
      for (let i = 0; i < B && !stopped; i += mb) {
        const idx = tf.tensor1d(Array.from(perm.slice(i, i + mb)), "int32");
        const [seq, att, old, ref, adv, ret, oldV, mask, pos] = [r.sequences, r.attentionMask, r.oldLogps, refLogps, gae.advantages, gae.returns, oldValues, r.completionMask, positions].map((t) => rows(t, idx));
        const actor = await ctx.policyGradients({ ids: seq, attentionMask: att, read: { lastTokens: R } }, (logps) =>
          tf.add(fns.ppoPolicyLoss(logps, old, adv, mask, s.clipEpsilon), tf.mul(s.beta, fns.referenceKlPenalty(logps, ref, mask))) as tf.Scalar,
        );
        const diag = ratioDiagnostics(fns, actor.policyLogps, old, mask, s.clipEpsilon);
        const klRef = tf.tidy(() => fns.referenceKlPenalty(actor.policyLogps, ref, mask).dataSync()[0]);
        const value = tf.variableGrads(() => fns.clippedValueLoss(criticValues(c, seq, att, pos), oldV, ret, mask, s.cliprangeValue), c.variables);
        const valueLoss = value.value.dataSync()[0];
        // MiniMind checks approx-KL before this minibatch's update and zeroes it once over the limit.
        if (diag.approxKl > s.earlyStopKl) stopped = true;
        else if (Number.isFinite(actor.loss) && Number.isFinite(valueLoss)) {
          ctx.applyGrads(ctx.optimizer, actor.grads, lr);
          ctx.applyGrads(c.optimizer, c.variables.map((v) => value.grads[v.name]), criticLr);
          updates++;
        }
        losses.push(actor.loss);
        valueLosses.push(valueLoss);
        kls.push(diag.approxKl);
        klRefs.push(klRef);
        clips.push(diag.clipFraction);
        tf.dispose([...actor.grads, actor.policyLogps, value.value, ...Object.values(value.grads), idx, seq, att, old, ref, adv, ret, oldV, mask, pos]);
      }
    }
    const metrics = sampledStepMetrics(r, answered, rewards, { loss: mean(losses), klRef: mean(klRefs), clipFraction: mean(clips) }, { value_loss: mean(valueLosses), approx_kl: mean(kls), updates, early_stop: stopped ? 1 : 0 });
    tf.dispose([refLogps, promptLens, positions, oldValues, tokenRewards, gae.advantages, gae.returns]);
    disposeRollout(r);
    return metrics;
  },
  saveState() {
    const c = critic!;
    const st = c.optimizer.state();
    const tensors: Record<string, StoredTensor> = {};
    criticNames(c).forEach((n, i) => {
      const shape = [...c.variables[i].shape];
      tensors[`critic.${n}`] = { shape, data: Float32Array.from(c.variables[i].dataSync() as Float32Array) };
      tensors[`critic_optimizer.exp_avg.${n}`] = { shape, data: st.m[i] };
      tensors[`critic_optimizer.exp_avg_sq.${n}`] = { shape, data: st.v[i] };
    });
    return { tensors, json: { criticAdamStep: st.t } };
  },
  loadState(_ctx, state) {
    const c = critic!;
    const names = criticNames(c);
    const get = (key: string) => {
      const t = state.tensors[key];
      if (!t) throw new TrainError(`the resume file lacks the PPO critic's ${key}: it was not written by a PPO run`);
      return t;
    };
    names.forEach((n, i) => {
      const t = get(`critic.${n}`);
      tf.tidy(() => c.variables[i].assign(tf.tensor(t.data, t.shape, "float32")));
    });
    const t = (state.json as { criticAdamStep?: number } | null)?.criticAdamStep;
    if (typeof t !== "number") throw new TrainError("the resume file lacks the PPO critic's optimiser step");
    c.optimizer.restore({ m: names.map((n) => get(`critic_optimizer.exp_avg.${n}`).data), v: names.map((n) => get(`critic_optimizer.exp_avg_sq.${n}`).data), t });
  },
  dispose() {
    if (!critic) return;
    critic.body.dispose();
    tf.dispose([critic.head, critic.bias]);
    critic = undefined;
  },
};

export default ppo;
