/**
 * Rollout for the RL runs (MiniMind's TorchRolloutEngine, trainer/rollout_engine.py:63-87): prompts
 * left-padded into one batch, each repeated G times, sampled with lesson 12's `generate` (KV cache)
 * and lesson 3's sampler, then scored once more by a full forward pass for the per-token
 * log-probabilities of the sampled tokens (lesson 25's `perTokenLogps`), with the response mask
 * ending at each row's first EOS (lesson 25's `ppoResponseMask` or lesson 24's `grpoCompletionMask`).
 *
 * Layout of a rollout of B = N·G rows (rows i·G … i·G + G − 1 answer prompt i):
 *   sequences [B, P + R]: pad … pad, prompt | completion, pad after the first EOS
 * P is the longest prompt, R the longest completion of the batch. Every tensor here is owned by
 * the returned object; `disposeRollout` frees them.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";

/** The lesson functions a rollout runs, resolved by the caller (lib/resolver.ts). */
export interface RolloutFunctions {
  /** Lesson 25: log π(token) of the last nKeep tokens, [B, nKeep]. */
  perTokenLogps: (logits: tf.Tensor3D, inputIds: tf.Tensor2D, nKeep: number, temperature?: number) => tf.Tensor2D;
  /** Lesson 25 (PPO) or lesson 24 (GRPO): the response mask up to and including the first EOS. */
  responseMask: (completionIds: tf.Tensor2D, padMask: tf.Tensor2D, eosTokenId: number) => tf.Tensor2D;
}

export interface RolloutOptions {
  /** G: completions per prompt (MiniMind's num_generations; 1 for PPO). */
  numGenerations: number;
  /** At most this many new tokens per completion (max_gen_len). */
  maxNewTokens: number;
  /** Sampling temperature (MiniMind samples at 0.8); top-k and top-p are off, as in HF's do_sample with top_k=0. */
  temperature: number;
  /** Seed of this rollout's sampler (the run's seed plus the step, so every step draws anew). */
  seed: number;
  eosId: number;
  padId: number;
  /** Greedy decoding instead of sampling (evaluation). */
  greedy?: boolean;
}

/** One batch of rollouts (see the module comment for the layout). */
export interface Rollout {
  /** [B, P + R] int32: left-padded prompts, then completions padded with padId after their first EOS. */
  sequences: tf.Tensor2D;
  /** [B, P + R] float32: 1 on every real token (prompt and completion up to its EOS), 0 on padding. */
  attentionMask: tf.Tensor2D;
  /** P: the padded prompt length; completion j of a row is sequence position P + j. */
  promptLength: number;
  /** [B, R] int32: the completion tokens. */
  completionIds: tf.Tensor2D;
  /** [B, R] float32: the tokens the loss counts (up to and including the first EOS). */
  completionMask: tf.Tensor2D;
  /** [B, R] float32: log π_old of each completion token, from the policy that sampled it (no gradient). */
  oldLogps: tf.Tensor2D;
  /** Each row's completion as text (special tokens dropped), and its token count under the mask. */
  texts: string[];
  lengths: number[];
  /** Mean entropy (nats) of the sampling policy over the masked completion tokens. */
  entropy: number;
}

/** Token ids of each prompt, left-padded to the longest: [N, P] ids and 0/1 mask. */
export function leftPad(prompts: readonly number[][], padId: number): { ids: number[][]; mask: number[][]; length: number } {
  const P = Math.max(...prompts.map((p) => p.length));
  return {
    ids: prompts.map((p) => [...new Array<number>(P - p.length).fill(padId), ...p]),
    mask: prompts.map((p) => [...new Array<number>(P - p.length).fill(0), ...new Array<number>(p.length).fill(1)]),
    length: P,
  };
}

/** Per-token log-probabilities of the last `nKeep` tokens of `sequences` under `model` ([B, nKeep]). */
export function sequenceLogps(model: MiniMindTS, fns: Pick<RolloutFunctions, "perTokenLogps">, sequences: tf.Tensor2D, attentionMask: tf.Tensor2D, nKeep: number): tf.Tensor2D {
  return tf.tidy(() => {
    const { logits, auxLoss } = model.forward(sequences, { attentionMask });
  auxLoss.dispose();
    return fns.perTokenLogps(logits, sequences, nKeep);
  });
}

/** Completions sampled (or decoded greedily) for prompts, before any scoring. */
export interface Sampled {
  /** The prompts left-padded: ids and 0/1 mask rows, and their length P. */
  padded: { ids: number[][]; mask: number[][]; length: number };
  /** [B][R]: each completion up to and including its first EOS, then padId; R the longest. */
  completion: number[][];
  /** [B][R]: 1 on a real completion token, 0 on padding. */
  padMask: number[][];
  texts: string[];
}

/**
 * Generates `numGenerations` completions of every prompt (token ids, chat template applied) with
 * lesson 12's `generate` (KV cache, left-padded batch), sampled with lesson 3's sampler unless
 * `greedy`; rows are cut after their first EOS and padded with padId (HF pads finished rows so).
 */
export function sampleCompletions(model: MiniMindTS, prompts: readonly number[][], decode: (ids: number[]) => string, opts: RolloutOptions): Sampled {
  const G = opts.numGenerations;
  const repeated = prompts.flatMap((p) => new Array<number[]>(G).fill(p));
  const B = repeated.length;
  const padded = leftPad(repeated, opts.padId);
  const P = padded.length;
  const promptIds = tf.tensor2d(padded.ids.flat(), [B, P], "int32");
  const promptMask = tf.tensor2d(padded.mask.flat(), [B, P], "int32");
  const pick = opts.greedy ? undefined : model.sampler({ seed: opts.seed, temperature: opts.temperature, topK: 0, topP: 1 });
  const out = model.generate(promptIds, { maxNewTokens: opts.maxNewTokens, eosTokenId: opts.eosId, attentionMask: promptMask, pickToken: pick });
  const all = out.arraySync() as number[][];
  tf.dispose([promptIds, promptMask, out]);
  const R = Math.max(1, ...all.map((row) => row.length - P));
  const completion: number[][] = [];
  const padMask: number[][] = [];
  for (const row of all) {
    const gen = row.slice(P);
    const eos = gen.indexOf(opts.eosId);
    const real = eos >= 0 ? eos + 1 : gen.length;
    completion.push(Array.from({ length: R }, (_, j) => (j < real ? gen[j] : opts.padId)));
    padMask.push(Array.from({ length: R }, (_, j) => (j < real ? 1 : 0)));
  }
  const texts = completion.map((ids, b) => decode(ids.slice(0, padMask[b].reduce((a, x) => a + x, 0))));
  return { padded, completion, padMask, texts };
}

/** Masked mean of the per-token entropy −Σ p log p of `logits` [B, L, V] at the last R positions that score tokens. */
function maskedEntropy(logits: tf.Tensor3D, mask: tf.Tensor2D): number {
  return tf.tidy(() => {
    const [B, L, V] = logits.shape;
    const R = mask.shape[1];
    const scoring = tf.slice(logits, [0, L - R - 1, 0], [B, R, V]);
    const logp = tf.logSoftmax(scoring);
    const h = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1));
    return tf.div(tf.sum(tf.mul(h, mask)), tf.maximum(tf.sum(mask), 1)).dataSync()[0];
  });
}

/**
 * Samples `numGenerations` completions of every prompt with `model` and scores them: masks from
 * EOS and the per-token log-probabilities of the policy that sampled them (see `Rollout`).
 */
export function rollout(model: MiniMindTS, fns: RolloutFunctions, prompts: readonly number[][], decode: (ids: number[]) => string, opts: RolloutOptions): Rollout {
  const s = sampleCompletions(model, prompts, decode, opts);
  const B = s.completion.length;
  const P = s.padded.length;
  const R = s.completion[0].length;
  const completionIds = tf.tensor2d(s.completion.flat(), [B, R], "int32");
  const pad = tf.tensor2d(s.padMask.flat(), [B, R], "float32");
  const completionMask = tf.tidy(() => tf.cast(fns.responseMask(completionIds, pad, opts.eosId), "float32")) as tf.Tensor2D;
  const sequences = tf.tidy(() => tf.concat([tf.tensor2d(s.padded.ids.flat(), [B, P], "int32"), completionIds], 1)) as tf.Tensor2D;
  const attentionMask = tf.tidy(() => tf.concat([tf.tensor2d(s.padded.mask.flat(), [B, P], "float32"), pad], 1)) as tf.Tensor2D;
  pad.dispose();
  const { logits, auxLoss } = model.forward(sequences, { attentionMask });
  auxLoss.dispose();
  const oldLogps = tf.tidy(() => fns.perTokenLogps(logits, sequences, R));
  const entropy = maskedEntropy(logits, completionMask);
  logits.dispose();
  const lengths = (completionMask.arraySync() as number[][]).map((r) => r.reduce((a, b) => a + b, 0));
  return { sequences, attentionMask, promptLength: P, completionIds, completionMask, oldLogps, texts: s.texts, lengths, entropy };
}

/** Frees every tensor of a rollout. */
export function disposeRollout(r: Rollout): void {
  tf.dispose([r.sequences, r.attentionMask, r.completionIds, r.completionMask, r.oldLogps]);
}
