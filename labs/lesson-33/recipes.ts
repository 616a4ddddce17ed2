/**
 * Lab 33, recipes: AReaL has no "GRPO" switch. GRPO and Dr.GRPO are settings of the same knobs
 * (examples/math/gsm8k_grpo.yaml:64-81 and gsm8k_drgrpo.yaml:63-80 @ 4aef98d8): reward shaping,
 * reward_norm per group, GAE with γ = λ = 1 and no critic, kl_ctl = 0, adv_norm per batch. This
 * rebuilds both from arealAdvantages (lesson 33) and normalize (lesson 34), checks them against
 * lesson 24's groupRelativeAdvantages, and shows the kl_ctl trap: kl_ctl > 0 with no reference
 * model turns the "KL" into a surprisal bonus (areal/trainer/ppo/actor.py:192-202).
 *
 * Run: npm run lab lesson-33 -- recipes
 */
import * as tf from "../../lib/tf.js";
import type * as Advantages from "../../exercises/lesson-33/advantages.js";
import type * as Grpo from "../../exercises/lesson-24/grpo.js";
import type * as Normalize from "../../exercises/lesson-34/normalize.js";
import type { NormConfig } from "../../exercises/lesson-34/config.js";
import { Rng } from "../../lib/random.js";
import { labFunctions, type LabContext } from "../lab.js";

const HOMES = { arealAdvantages: "lesson-33", normalize: "lesson-34", groupRelativeAdvantages: "lesson-24" };
type Functions = {
  arealAdvantages: typeof Advantages.arealAdvantages;
  normalize: typeof Normalize.normalize;
  groupRelativeAdvantages: typeof Grpo.groupRelativeAdvantages;
};

/** 4 prompts × 6 samples, 0/1 rewards, one group all correct; prompts of 3 tokens, answers of 4-9. */
const N = 4;
const G = 6;
const T = 14;
const PROMPT = 3;

export interface RecipeBatch {
  attentionMask: tf.Tensor2D;
  lossMask: tf.Tensor2D;
  logprobs: tf.Tensor2D;
  rewards: number[];
  seqlens: number[];
}

/** A seeded GRPO batch: every row ends with EOS before the width (no truncation). */
export function recipeBatch(seed = 33): RecipeBatch {
  const rng = new Rng(seed);
  const B = N * G;
  const seqlens = Array.from({ length: B }, () => PROMPT + rng.int(4, T - PROMPT - 1));
  const rewards = Array.from({ length: B }, (_, i) => (Math.floor(i / G) === 1 ? 1 : rng.next() < 0.5 ? 1 : 0));
  const attention = seqlens.map((L) => Array.from({ length: T }, (_, t) => (t < L ? 1 : 0)));
  const loss = seqlens.map((L) => Array.from({ length: T }, (_, t) => (t >= PROMPT && t < L ? 1 : 0)));
  const logp = seqlens.map((L) => Array.from({ length: T }, (_, t) => (t >= PROMPT && t < L ? -rng.uniforms(1, 0.05, 3)[0] : 0)));
  return {
    attentionMask: tf.tensor2d(attention, undefined, "bool") as tf.Tensor2D,
    lossMask: tf.tensor2d(loss, undefined, "bool") as tf.Tensor2D,
    logprobs: tf.tensor2d(logp) as tf.Tensor2D,
    rewards,
    seqlens,
  };
}

export interface Recipe {
  name: string;
  /** reward_norm, applied to the shaped rewards (actor.py:166-173). */
  rewardNorm: NormConfig | null;
  /** adv_norm, applied to the advantages over the valid tokens (actor.py:237-239). */
  advNorm: NormConfig | null;
  klCtl: number;
}

/** The settings of the two example configs that shape the advantages (bias −0.5, scaling 10, γ = λ = 1). */
export const GRPO: Recipe = { name: "GRPO", rewardNorm: { meanLevel: "group", stdLevel: "group", groupSize: G }, advNorm: { meanLevel: "batch", stdLevel: "batch" }, klCtl: 0 };
export const DR_GRPO: Recipe = { name: "Dr.GRPO", rewardNorm: { meanLevel: "group", stdLevel: "none", groupSize: G }, advNorm: { meanLevel: "batch", stdLevel: "batch" }, klCtl: 0 };
const REWARD_BIAS = -0.5;
const REWARD_SCALING = 10;
const REWARD_CLIP = 20;

/**
 * AReaL's advantages for a recipe: shaped and normalised rewards (done here, in AReaL's order:
 * bias, scaling, clip, reward_norm), then arealAdvantages with no further shaping, then adv_norm.
 */
export function recipeAdvantages(fns: Functions, batch: RecipeBatch, recipe: Recipe): { perRow: number[]; advantages: tf.Tensor2D; lossMask: tf.Tensor2D } {
  return tf.tidy(() => {
    const shaped = tf.clipByValue(tf.mul(tf.add(tf.tensor1d(batch.rewards), REWARD_BIAS), REWARD_SCALING), -REWARD_CLIP, REWARD_CLIP);
    const normed = recipe.rewardNorm ? (fns.normalize(shaped, recipe.rewardNorm) as tf.Tensor1D) : (shaped as tf.Tensor1D);
    const out = fns.arealAdvantages({
      attentionMask: batch.attentionMask,
      lossMask: batch.lossMask,
      logprobs: batch.logprobs,
      rewards: normed,
      discount: 1,
      gaeLambda: 1,
      klCtl: recipe.klCtl,
      klEstimator: "k1",
      maskNoEosWithZero: false,
      rewardBias: 0,
      rewardScaling: 1,
      rewardClip: 1e9,
    });
    const mask = tf.cast(out.lossMask, "float32");
    const advantages = (recipe.advNorm ? fns.normalize(out.advantages, { ...recipe.advNorm, mask }) : out.advantages) as tf.Tensor2D;
    // One number per row: the advantage at its first response position (rolled coordinates: PROMPT − 1).
    const a = advantages.arraySync();
    const perRow = batch.seqlens.map((_, b) => a[b][PROMPT - 1]);
    return { perRow, advantages: tf.keep(advantages), lossMask: tf.keep(out.lossMask as tf.Tensor2D) };
  });
}

const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3).padStart(7)).join("");
const maxAbsDiff = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

/** Is the advantage constant over each row's valid tokens (GAE with γ = λ = 1 and a reward at the end)? */
function constantPerRow(advantages: tf.Tensor2D, lossMask: tf.Tensor2D): number {
  const a = advantages.arraySync();
  const m = lossMask.arraySync() as unknown as number[][];
  let worst = 0;
  a.forEach((row, b) => {
    const vals = row.filter((_, t) => m[b][t]);
    worst = Math.max(worst, Math.max(...vals) - Math.min(...vals));
  });
  return worst;
}

export async function recipesLab(ctx: LabContext): Promise<void> {
  console.log("Lab 33, recipes: GRPO and Dr.GRPO from AReaL's knobs\n");
  const fns = await labFunctions<Functions>(ctx, HOMES);
  const batch = recipeBatch();
  console.log(`  ${N} prompts × ${G} samples, 0/1 rewards (prompt 1: all correct);`);
  console.log(`  reward_bias ${REWARD_BIAS}, reward_scaling ${REWARD_SCALING}, γ = λ = 1, no critic, as the example configs.\n`);

  const lesson24 = tf.tidy(() => Array.from(fns.groupRelativeAdvantages(tf.tensor1d(batch.rewards), G).dataSync()));
  const groupOnly: Recipe = { ...GRPO, name: "GRPO, reward_norm only", advNorm: null };
  const groupOnlyMinimind: Recipe = { ...groupOnly, name: "same, population std, eps 1e-4", rewardNorm: { ...GRPO.rewardNorm!, unbiased: false, eps: 1e-4 * REWARD_SCALING } };
  const rows: Array<[string, number[], string]> = [];
  for (const recipe of [groupOnly, groupOnlyMinimind, GRPO, DR_GRPO]) {
    const r = recipeAdvantages(fns, batch, recipe);
    const spread = constantPerRow(r.advantages, r.lossMask);
    rows.push([recipe.name, r.perRow, spread < 1e-5 ? "yes" : `no (spread ${spread.toFixed(4)})`]);
    tf.dispose([r.advantages, r.lossMask]);
  }
  console.log("  The advantage of each answer, rows 0-8 (prompt 0, then the all-correct prompt 1):");
  console.log(`  ${"lesson 24 (MiniMind)".padEnd(32)}${fmt(lesson24.slice(0, 9))}`);
  for (const [name, perRow] of rows) console.log(`  ${name.padEnd(32)}${fmt(perRow.slice(0, 9))}`);
  const notes = rows.map(([, , note]) => note);
  console.log(`  Constant over each answer's tokens: ${notes.every((n) => n === "yes") ? "yes, under all four" : notes.join("; ")}.`);
  const [areal, aligned] = [rows[0][1], rows[1][1]];
  console.log(`
  max |AReaL's reward_norm − lesson 24|                      = ${maxAbsDiff(areal, lesson24).toFixed(4)}
  max |the same with population std and MiniMind's eps − lesson 24| = ${maxAbsDiff(aligned, lesson24).toExponential(1)}

  Reading it:
  - With γ = λ = 1, no critic and kl_ctl = 0, GAE copies the outcome reward to every token of the
    answer: AReaL's token advantages are per-answer numbers, like GRPO's.
  - reward_norm per group IS GRPO's group-relative advantage, up to two conventions: AReaL's std is
    unbiased (n − 1) and its eps 1e-5; MiniMind's std is the population one, eps 1e-4. Aligned, they
    agree to float precision; as configured, answers differ by a factor sqrt(G/(G − 1)) = ${Math.sqrt(G / (G - 1)).toFixed(4)}.
    reward_bias and reward_scaling cancel in a mean/std normalisation (only eps sees the scale).
  - Dr.GRPO drops the division by the group's std (std_level: null): an easy prompt with a small
    spread no longer gets its advantages blown up. Its scale (×${REWARD_SCALING} here) is then removed by
    adv_norm over the batch, which both example configs also apply.
  - The all-correct prompt (rows 6-11) gets 0 from reward_norm: no signal, as it should. adv_norm
    then subtracts the batch's token-weighted mean, which moves those zeros slightly (−0.02 here).
`);
  klTrap(fns, batch);
}

/** kl_ctl > 0 with no reference model: ref_logp becomes zeros, so the KL reward is κ·log π_old (k1), a bonus of κ·(−log π_old) … with its sign. */
function klTrap(fns: Functions, batch: RecipeBatch): void {
  const kappa = 0.1;
  const trapped: Recipe = { ...GRPO, name: "GRPO + kl_ctl 0.1, no ref", advNorm: null, klCtl: kappa };
  const clean: Recipe = { ...GRPO, advNorm: null };
  const a = recipeAdvantages(fns, batch, trapped);
  const b = recipeAdvantages(fns, batch, clean);
  const diff = tf.tidy(() => tf.sub(a.advantages, b.advantages).arraySync()) as number[][];
  const logp = batch.logprobs.arraySync();
  // The answer's total surprisal Σ −log π_old, against the advantage shift at its first token.
  const shown = [0, 1, 2, 3];
  console.log("  The kl_ctl trap: kl_ctl = 0.1 and no reference model (ref_logp defaults to zeros, actor.py:192-194)");
  console.log("  row   Σ −log π_old over the answer   κ·Σ   advantage shift at the answer's first token");
  for (const r of shown) {
    const surprisal = logp[r].slice(PROMPT, batch.seqlens[r]).reduce((s, x) => s - x, 0);
    console.log(`  ${String(r).padStart(3)}   ${surprisal.toFixed(3).padStart(27)}   ${(kappa * surprisal).toFixed(3).padStart(4)}   ${diff[r][PROMPT - 1].toFixed(3).padStart(10)}`);
  }
  console.log(`
  With ref_logp = 0 the k1 "KL" is log π_old − 0, so the dense reward −κ·KL = κ·(−log π_old) at every
  token: a bonus for surprising tokens (and, summed by GAE, for long answers). It is not a KL to
  anything. Either load a reference model, or set kl_ctl: 0 (both example configs do).
`);
  tf.dispose([a.advantages, a.lossMask, b.advantages, b.lossMask]);
}
