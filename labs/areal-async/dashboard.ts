/**
 * Reading AReaL's dashboard: the statistics its actor logs for each step, computed on the simulated
 * asynchronous runs with their real denominators (areal/trainer/ppo/actor.py:256-328, 514-573,
 * 995-1062 @ 4aef98d8, averaged as areal/utils/stats_tracker.py:244-261 does: Σ over the
 * denominator's tokens / their count). A healthy run (η = 1) beside an unhealthy one (η = 8, and a
 * sampler temperature the trainer forgot).
 *
 * Run: npm run lab areal-async -- dashboard
 */
import * as tf from "../../lib/tf.js";
import type * as DecoupledPpo from "../../exercises/lesson-29/decoupled-ppo.js";
import type * as Sources from "../../exercises/lesson-30/logp-sources.js";
import type * as Rejection from "../../exercises/lesson-34/rejection.js";
import type * as Normalize from "../../exercises/lesson-34/normalize.js";
import { labFunctions, type LabContext } from "../lab.js";
import { ToyPolicy } from "./policy.js";
import { simulate, type AsyncConfig, type TrainStep } from "./simulation.js";

const HOMES = { decoupledPpoLoss: "lesson-29", mismatchKl: "lesson-30", rejectionSampling: "lesson-34", normalize: "lesson-34" };
type Functions = {
  decoupledPpoLoss: typeof DecoupledPpo.decoupledPpoLoss;
  mismatchKl: typeof Sources.mismatchKl;
  rejectionSampling: typeof Rejection.rejectionSampling;
  normalize: typeof Normalize.normalize;
};

const WIDTH = 24;
const BASE: Omit<AsyncConfig, "maxHeadOffpolicyness"> = { batchSize: 16, maxConcurrent: 24, trainSteps: 24, maxNewTokens: WIDTH, minNewTokens: 6, tokensPerTick: 2, trainTicks: 10, seed: 34 };
const DRIFT = { trend: 0.12, noise: 0.08 };
const EPS = 0.2;
const C_CLIP = 3;
const RS = { action: "mask" as const, upper: 2 };

interface RunSpec {
  name: string;
  eta: number;
  /** The engine's log-probs are those of softmax(z / τ) while the trainer scores at 1 (τ = 1: no bug). */
  engineTemperature: number;
}

/** One step's logged values: the name AReaL logs it under, its denominator, and the value (null: nothing logged). */
type Logged = Record<string, { denominator: string; value: number | null }>;

/** log σ(z / τ) from log σ(z): the binary toy token under a tempered sampler. */
function tempered(logp: number, tau: number): number {
  if (tau === 1) return logp;
  const z = Math.log(Math.exp(logp) / -Math.expm1(logp)); // logit of p = σ(z)
  const zt = z / tau;
  return zt >= 0 ? -Math.log1p(Math.exp(-zt)) : zt - Math.log1p(Math.exp(zt));
}

/** Σ_d x / Σ d, or null when the denominator is empty (the stats tracker then logs nothing). */
function avgOver(x: ArrayLike<number>, d: ArrayLike<number | boolean>): number | null {
  let s = 0;
  let n = 0;
  for (let i = 0; i < d.length; i++) if (d[i]) { s += x[i]; n++; }
  return n === 0 ? null : s / n;
}

function stepStats(fns: Functions, step: TrainStep, policy: ToyPolicy, spec: RunSpec): Logged {
  const B = step.samples.length;
  const n = B * WIDTH;
  const mask = new Float32Array(n);
  const behave = new Float32Array(n);
  const prox = new Float32Array(n);
  const current = new Float32Array(n);
  const entropy = new Float32Array(n);
  const versions = new Float32Array(n);
  step.samples.forEach((s, b) => {
    s.versions.forEach((v, t) => {
      const i = b * WIDTH + t;
      mask[i] = 1;
      versions[i] = v;
      behave[i] = tempered(policy.logp(s.id, t, v), spec.engineTemperature);
      prox[i] = policy.logp(s.id, t, step.step);
      current[i] = policy.logp(s.id, t, step.step + 1);
      const p = Math.exp(current[i]);
      entropy[i] = -(p * Math.log(p) + (1 - p) * Math.log1p(-p)); // the toy token is a binary choice
    });
  });
  const rewards = step.samples.map((s) => s.reward);
  let logged: Logged = {};
  tf.tidy(() => {
    const shape: [number, number] = [B, WIDTH];
    const maskF = tf.tensor2d(mask, shape);
    const maskB = tf.cast(maskF, "bool") as tf.Tensor2D;
    const [behaveT, proxT, currentT] = [behave, prox, current].map((a) => tf.tensor2d(a, shape));
    const perToken = tf.mul(tf.tensor2d(step.samples.map((s) => Array(WIDTH).fill(s.reward))), maskF);
    const advantages = fns.normalize(perToken, { mask: maskF }) as tf.Tensor2D;
    const out = fns.decoupledPpoLoss({ logprobs: currentT, proximalLogprobs: proxT, oldLogprobs: behaveT, advantages, lossMask: maskB, epsClip: EPS, cClip: C_CLIP, rejectionSampling: RS });
    const rs = fns.rejectionSampling(proxT, behaveT, maskF, { action: "mask", upper: RS.upper });
    const valid = mask; // n_valid_tokens (no M2PO here)
    const clip = out.clipMask.dataSync();
    const kept = rs.lossMask.dataSync(); // unclipped_behave_tokens: the tokens rejection sampling kept
    const behaveW = rs.behaveImpWeight.dataSync();
    const logRatioProx = tf.sub(proxT, behaveT).dataSync();
    const kl = fns.mismatchKl(currentT, behaveT, maskB);
    const lengths = step.samples.map((s) => s.versions.length);
    const staleness = Array.from(versions).map((v, i) => (mask[i] ? step.step - v : Number.NaN)).filter((x) => !Number.isNaN(x));
    const ones = rewards.map(() => 1);
    const stat = (denominator: string, value: number | null) => ({ denominator, value });
    logged = {
      "task_reward": stat("n_seqs", avgOver(rewards, ones)),
      "seq_len": stat("n_seqs", avgOver(lengths, ones)),
      "no_eos_ratios": stat("n_seqs", avgOver(lengths.map((l) => (l === WIDTH ? 1 : 0)), ones)),
      "importance_weight": stat("n_valid_tokens", avgOver(out.importanceWeight.dataSync(), valid)),
      "clip_ratio": stat("n_valid_tokens", avgOver(Array.from(clip, Number), valid)),
      "dual_clip_ratio": stat("n_valid_tokens", avgOver(Array.from(out.dualClipMask.dataSync(), Number), valid)),
      "entropy": stat("n_valid_tokens", avgOver(entropy, valid)),
      "clipped_new_logp": stat("clipped_tokens", avgOver(current, clip)),
      "behave_imp_weight": stat("unclipped_behave_tokens", avgOver(behaveW, kept)),
      "behave_approx_kl": stat("unclipped_behave_tokens", avgOver(logRatioProx, kept)),
      "rs_filtered_fraction": stat("scalar", rs.filteredFraction),
      "compute_logp/kl_div_dual": stat("n_valid_tokens", kl?.dual ?? null),
      "version_stats/staleness_avg": stat("scalar", staleness.length ? staleness.reduce((a, x) => a + x, 0) / staleness.length : null),
    };
  });
  return logged;
}

function runStats(fns: Functions, spec: RunSpec): Record<string, { denominator: string; mean: number | null }> {
  const sim = simulate({ ...BASE, maxHeadOffpolicyness: spec.eta });
  const policy = new ToyPolicy(BASE.seed, WIDTH, BASE.trainSteps + 1, DRIFT);
  const steps = sim.steps.map((s) => stepStats(fns, s, policy, spec));
  const out: Record<string, { denominator: string; mean: number | null }> = {};
  for (const key of Object.keys(steps[0])) {
    const values = steps.map((s) => s[key].value).filter((v): v is number => v !== null);
    out[key] = { denominator: steps[0][key].denominator, mean: values.length ? values.reduce((a, x) => a + x, 0) / values.length : null };
  }
  return out;
}

const RUNS: RunSpec[] = [
  { name: "healthy η=1", eta: 1, engineTemperature: 1 },
  { name: "stale η=8", eta: 8, engineTemperature: 1 },
  { name: "τ=0.7 lost", eta: 1, engineTemperature: 0.7 },
];

export async function dashboardLab(ctx: LabContext): Promise<void> {
  console.log("Reading AReaL's dashboard: the actor's logged statistics on simulated runs\n");
  const fns = await labFunctions<Functions>(ctx, HOMES);
  console.log(`  ${BASE.trainSteps} steps of ${BASE.batchSize} answers; decoupled PPO, ε = ${EPS}, c = ${C_CLIP},`);
  console.log(`  rejection sampling masks tokens with π_prox/π_behave > ${RS.upper}. Each value is, per step, the sum over`);
  console.log("  its denominator's tokens / their count (AReaL's stats tracker), then averaged over the steps.");
  console.log("  τ=0.7 lost: the engine samples at τ = 0.7, the trainer scores at 1.\n");
  const results = RUNS.map((r) => runStats(fns, r));
  const keys = Object.keys(results[0]);
  const nameWidth = Math.max(...keys.map((k) => k.length));
  const denWidth = Math.max(...keys.map((k) => results[0][k].denominator.length));
  console.log(`  ${"statistic".padEnd(nameWidth)}  ${"denominator".padEnd(denWidth)}${RUNS.map((r) => r.name.padStart(12)).join("")}`);
  console.log(`  ${"-".repeat(nameWidth)}  ${"-".repeat(denWidth)}${RUNS.map(() => " ".repeat(2) + "-".repeat(10)).join("")}`);
  for (const k of keys) {
    const cells = results.map((r) => (r[k].mean === null ? "—" : r[k].mean!.toFixed(4)).padStart(12)).join("");
    console.log(`  ${k.padEnd(nameWidth)}  ${results[0][k].denominator.padEnd(denWidth)}${cells}`);
  }
  console.log(`
  Reading it:
  - importance_weight (π_θ/π_prox) is averaged over n_valid_tokens, but it is 0 on the tokens that
    rejection sampling dropped: with 5% dropped (τ lost) its average falls by about as much, with
    no change in how far the policy moved.
  - clip_ratio counts tokens where the clipped term won (lesson 29), over n_valid_tokens. With the
    decoupled loss it does not grow with staleness: the trust region is centred on π_prox.
  - behave_imp_weight and behave_approx_kl (π_prox vs π_behave) average over
    unclipped_behave_tokens, the tokens rejection sampling kept: read them with
    rs_filtered_fraction. Here the stale run's behave_approx_kl is six times the healthy one while
    an upper bound of 2 drops almost nothing: the bound is too loose to act on this drift.
  - entropy is the policy's entropy on the valid tokens, detached (actor.py:434) and only logged
    (actor.py:533): AReaL's actor adds no entropy bonus to the loss. A collapse shows here first.
  - compute_logp/kl_div_dual (trainer vs engine log-probs) grows with staleness (10× at η = 8),
    and it also jumps when the engine samples at a τ the trainer does not apply (6×) while the
    staleness is unchanged: only version_stats tells the two causes apart.
  - Healthy: rs_filtered_fraction ≈ 0, behave_imp_weight ≈ 1, kl_div_dual small and flat, staleness
    within η. task_reward, seq_len and entropy barely differ between the runs: the simulation's
    rewards do not react to the loss, so only the off-policy statistics tell the runs apart.
`);
}
