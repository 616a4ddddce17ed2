/**
 * DPO (trainer/train_dpo.py) on pairs the start model makes itself: before the first step, G
 * samples of every training prompt from the frozen reference (the SFT model); a prompt with a
 * right and a wrong answer gives one pair (chosen = right, rejected = wrong), laid out by lesson
 * 21's dpoSample/dpoBatch. Each step: lesson 22's tokenLogProbs under the policy and the reference,
 * and lesson 22's dpoLoss. The time to build the pairs counts in the run's wall time. The pairs
 * are rebuilt identically from the seed on resume (checked by a hash); saveState keeps their order.
 */
import { createHash } from "node:crypto";
import * as tf from "../../tf.js";
import { Rng } from "../../random.js";
import type { TextTokenizer } from "../../tokenizer.js";
import { epochOrder } from "../../train/data.js";
import { TrainError } from "../../train/errors.js";
import { sampleCompletions } from "../rollout.js";
import type { RlAlgorithm, RlContext } from "../run.js";
import { exactMatch } from "../tasks.js";
import { mean } from "./common.js";

type Message = { role: string; content: string };
interface DpoSample {
  xChosen: number[];
  yChosen: number[];
  maskChosen: number[];
  xRejected: number[];
  yRejected: number[];
  maskRejected: number[];
}
type DpoFns = {
  dpoSample: (chosen: Message[], rejected: Message[], tok: TextTokenizer, maxLength: number, random: () => number) => DpoSample;
  dpoBatch: (samples: DpoSample[]) => { x: tf.Tensor2D; y: tf.Tensor2D; mask: tf.Tensor2D };
  tokenLogProbs: (logits: tf.Tensor3D, labels: tf.Tensor2D) => tf.Tensor2D;
  dpoLoss: (ref: tf.Tensor2D, policy: tf.Tensor2D, mask: tf.Tensor2D, beta: number) => tf.Scalar;
  referenceKlPenalty: (p: tf.Tensor2D, r: tf.Tensor2D, m: tf.Tensor2D) => tf.Scalar;
};

let pairs: DpoSample[] = [];
let order: number[] = [];
let cursor = 0;
/** Passes over the pairs begun so far: pass e is ordered by epochOrder(seed, e). */
let passes = 0;
let pairStats = { prompts: 0, pairs: 0, sampleAccuracy: 0 };

/** Samples G answers of every training prompt from the reference and keeps (right, wrong) pairs. */
function buildPairs(ctx: RlContext): void {
  const s = ctx.settings;
  const fns = ctx.fns as unknown as DpoFns;
  const rng = new Rng(s.seed);
  let correct = 0;
  let total = 0;
  pairs = [];
  for (let i = 0; i < ctx.train.length; i += 8) {
    const batch = ctx.train.slice(i, i + 8);
    const out = sampleCompletions(ctx.reference, batch.map((t) => ctx.promptIds(t)), ctx.decode, {
      numGenerations: s.numGenerations,
      maxNewTokens: s.maxNewTokens,
      temperature: s.temperature,
      seed: s.seed * 7919 + i,
      eosId: ctx.tok.eosId,
      padId: ctx.tok.padId,
    });
    batch.forEach((t, j) => {
      const texts = out.texts.slice(j * s.numGenerations, (j + 1) * s.numGenerations);
      const right = texts.find((x) => exactMatch(x, t.answer) === 1);
      const wrong = texts.find((x) => exactMatch(x, t.answer) === 0);
      correct += texts.filter((x) => exactMatch(x, t.answer) === 1).length;
      total += texts.length;
      if (right === undefined || wrong === undefined) return;
      const user = { role: "user", content: t.question };
      pairs.push(fns.dpoSample([user, { role: "assistant", content: right }], [user, { role: "assistant", content: wrong }], ctx.tok, s.maxSeqLen, () => rng.next()));
    });
  }
  pairStats = { prompts: ctx.train.length, pairs: pairs.length, sampleAccuracy: correct / Math.max(total, 1) };
}

/** SHA-256 of the pairs' token ids (a resume checks the rebuilt pairs are the run's). */
const pairsHash = () => createHash("sha256").update(JSON.stringify(pairs)).digest("hex");

const dpo: RlAlgorithm = {
  name: "dpo",
  summary: "DPO on (right, wrong) pairs sampled from the SFT model itself, frozen reference, lesson 22's loss",
  weightName: "dpo",
  functions: { dpoSample: "lesson-21", dpoBatch: "lesson-21", tokenLogProbs: "lesson-22", dpoLoss: "lesson-22", referenceKlPenalty: "lesson-23" },
  // 16 pairs a step; MiniMind's beta 0.15 (train_dpo.py:152).
  defaults: { promptsPerStep: 16, beta: 0.15 },
  setup(ctx) {
    const t0 = performance.now();
    buildPairs(ctx);
    if (pairs.length === 0) throw new TrainError("DPO: no prompt had both a right and a wrong sample among its G samples; raise --num-generations or the temperature");
    order = [];
    cursor = 0;
    passes = 0;
    ctx.log(`Pairs: ${pairs.length} of ${pairStats.prompts} prompts had a right and a wrong answer among ${ctx.settings.numGenerations} samples (sample accuracy ${(100 * pairStats.sampleAccuracy).toFixed(1)}%), built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  },
  async step(ctx, step, lr) {
    const s = ctx.settings;
    const fns = ctx.fns as unknown as DpoFns;
    const picked: DpoSample[] = [];
    while (picked.length < Math.min(s.promptsPerStep, pairs.length)) {
      if (cursor >= order.length) {
        order = epochOrder(pairs.length, s.seed, passes++);
        cursor = 0;
      }
      picked.push(pairs[order[cursor++]]);
    }
    const batch = fns.dpoBatch(picked);
    const refLogps = tf.tidy(() => fns.tokenLogProbs(ctx.reference.forward(batch.x, {}).logits, batch.y));
    const { loss, grads, policyLogps: kept } = await ctx.policyGradients({ ids: batch.x, read: { labels: batch.y } }, (logps) => fns.dpoLoss(refLogps, logps, batch.mask, s.beta));
    if (Number.isFinite(loss)) ctx.applyGrads(ctx.optimizer, grads, lr);
    // Implicit rewards β·(log π − log π_ref) summed over each response; pair i is rows i and i + n.
    const n = picked.length;
    const implicit = tf.tidy(() => Array.from(tf.mul(s.beta, tf.sum(tf.mul(tf.sub(kept, refLogps), batch.mask), 1)).dataSync()));
    const margins = implicit.slice(0, n).map((c, i) => c - implicit[n + i]);
    // KL to the reference on the chosen rows only: k3 = e^u − u − 1 with u = log π_ref − log π is a
    // KL estimate on tokens the policy would sample; on the rejected rows, which DPO pushes down on
    // purpose, u grows and e^u explodes without the policy diverging (measured: one batch at 17).
    const rows = (t: tf.Tensor2D, from: number) => tf.slice(t, [from, 0], [n, -1]) as tf.Tensor2D;
    const [klRef, klRejected] = tf.tidy(() => [0, n].map((from) => fns.referenceKlPenalty(rows(kept, from), rows(refLogps, from), rows(batch.mask, from)).dataSync()[0]));
    const lengths = (batch.mask.arraySync() as number[][]).map((r) => r.reduce((a, b) => a + b, 0));
    tf.dispose([...grads, kept, refLogps, batch.x, batch.y, batch.mask]);
    return {
      loss,
      // DPO has no sampled reward: the step's "reward" is the mean implicit reward margin, its
      // "accuracy" the share of pairs the policy already prefers the right way round.
      rewardMean: mean(margins),
      rewardStd: Math.sqrt(mean(margins.map((m) => (m - mean(margins)) ** 2))),
      accuracy: mean(margins.map((m) => (m > 0 ? 1 : 0))),
      klRef,
      clipFraction: 0,
      entropy: NaN,
      responseLength: mean(lengths),
      extra: { pairs: pairs.length, kl_rejected_rows: klRejected },
    };
  },
  saveState() {
    return { tensors: {}, json: { pairs: pairs.length, pairsSha256: pairsHash(), passes, cursor } };
  },
  loadState(ctx, state) {
    const saved = state.json as { pairs: number; pairsSha256: string; passes: number; cursor: number } | null;
    if (!saved || typeof saved.passes !== "number") throw new TrainError("the resume file lacks DPO's pair order: it was not written by a DPO run");
    if (saved.pairs !== pairs.length || saved.pairsSha256 !== pairsHash()) {
      throw new TrainError(`DPO: the rebuilt pairs differ from the run's (${saved.pairs} then, ${pairs.length} now): the reference, the prompts or the backend changed; start a new run`, 2);
    }
    passes = saved.passes;
    cursor = saved.cursor;
    order = passes > 0 ? epochOrder(pairs.length, ctx.settings.seed, passes - 1) : [];
  },
  dispose() {
    pairs = [];
  },
};

export default dpo;
