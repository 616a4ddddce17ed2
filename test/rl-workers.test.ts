/**
 * `--workers N` for the RL stages (lib/rl/policy-workers.ts): the policy update split at the
 * log-probabilities gives the one-process gradient for GRPO's per-row means, PPO's token means and
 * DPO's pairs (rows of a pair on different ranks) alike; `npm run train -- grpo|ppo|async|agent
 * --workers 2` follows the one-process run; a two-worker GRPO run stopped by Ctrl-C and then
 * SIGKILLed leaves no worker and no all-reduce folder and resumes to the uninterrupted run's curve. The micro config on the wasm
 * backend (what training runs on).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { ROOT } from "../grader/engine/paths.js";
import { initBackend } from "../lib/backend.js";
import { MiniMindTS } from "../lib/model/model.js";
import { PIECE_HOMES, resolveRun, type PieceName } from "../lib/model/pieces.js";
import { Rng } from "../lib/random.js";
import { policyGradientsHere, POLICY_LOGPS_HOMES, type PolicyBatch, type PolicyLogpsFunctions, type PolicyLoss, type PolicyStep } from "../lib/rl/policy-batch.js";
import { policyGradientsAcross } from "../lib/rl/policy-workers.js";
import { PRESETS, presetConfig } from "../lib/train/settings.js";
import { GradientWorkers } from "../lib/train/workers.js";
import { runRl } from "../lib/rl/run.js";
import grpo from "../lib/rl/algorithms/grpo.js";
import ppo from "../lib/rl/algorithms/ppo.js";
import asyncPpo from "../lib/rl/algorithms/async.js";
import { allReduceFolders, gone, interruptedRun } from "./support/processes.js";

type T2 = tf.Tensor2D;
type Fns = {
  grpoPolicyLoss: (p: T2, o: T2, r: T2, a: tf.Tensor1D, m: T2, eps: number, beta: number) => tf.Scalar;
  ppoPolicyLoss: (n: T2, o: T2, a: T2, m: T2, clip: number) => tf.Scalar;
  referenceKlPenalty: (p: T2, r: T2, m: T2) => tf.Scalar;
  dpoLoss: (ref: T2, policy: T2, mask: T2, beta: number) => tf.Scalar;
};

const env = { ...process.env, COURSE_BACKEND: "wasm", FORCE_COLOR: "0" };
let work: string;
beforeAll(async () => {
  process.env.COURSE_BACKEND = "wasm";
  await initBackend("wasm");
  work = mkdtempSync(join(tmpdir(), "course-rl-workers-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** max |a − b| over every gradient element, and max |a|. */
function gradientGap(a: PolicyStep, b: PolicyStep): { gap: number; scale: number } {
  let gap = 0;
  let scale = 0;
  a.grads.forEach((g, i) => {
    const x = g.dataSync();
    const y = b.grads[i].dataSync();
    for (let j = 0; j < x.length; j++) {
      gap = Math.max(gap, Math.abs(x[j] - y[j]));
      scale = Math.max(scale, Math.abs(x[j]));
    }
  });
  return { gap, scale };
}

const disposeStep = (s: PolicyStep) => tf.dispose([...s.grads, s.policyLogps]);

describe("the policy update split across processes", () => {
  it("gives the one-process loss, log-probs and gradient for GRPO, PPO and DPO losses (3 ranks, 5 rows)", async () => {
    const config = presetConfig(PRESETS.micro, 512, 64);
    const homes = { ...POLICY_LOGPS_HOMES, grpoPolicyLoss: "lesson-24", ppoPolicyLoss: "lesson-23", referenceKlPenalty: "lesson-23", dpoLoss: "lesson-22" };
    const { pieces, fns } = await resolveRun<Fns & PolicyLogpsFunctions>(Object.keys(PIECE_HOMES) as PieceName[], homes, { useReference: ["all"] });
    const model = MiniMindTS.init(config, 7, { pieces });
    const variables = model.trainableVariables();
    const rng = new Rng(5);
    const [B, T, R] = [5, 20, 8];
    const ids = tf.tensor2d(Int32Array.from({ length: B * T }, () => rng.int(1, 500)), [B, T], "int32");
    // Row b is left-padded by b positions; row b's completion keeps 3 + b tokens.
    const attention = tf.tensor2d(Float32Array.from({ length: B * T }, (_, i) => (i % T < Math.floor(i / T) ? 0 : 1)), [B, T]);
    const completion = tf.tensor2d(Float32Array.from({ length: B * R }, (_, i) => (i % R < 3 + Math.floor(i / R) ? 1 : 0)), [B, R]);
    const old = tf.randomNormal([B, R], -6, 0.1, "float32", 3) as T2;
    const ref = tf.randomNormal([B, R], -6, 0.1, "float32", 4) as T2;
    const rowAdvantages = tf.tensor1d([1, -1, 0.5, -0.5, 2]);
    const tokenAdvantages = tf.randomNormal([B, R], 0, 1, "float32", 5) as T2;
    const labels = tf.tensor2d(Int32Array.from({ length: 4 * T }, () => rng.int(1, 500)), [4, T], "int32");
    const pairIds = tf.slice(ids, [0, 0], [4, T]) as T2;
    const pairMask = tf.tensor2d(Float32Array.from({ length: 4 * T }, (_, i) => (i % T > 10 ? 1 : 0)), [4, T]);
    const pairRef = tf.randomNormal([4, T], -6, 0.1, "float32", 9) as T2;
    const lastTokens: PolicyBatch = { ids, attentionMask: attention, read: { lastTokens: R } };
    const cases: Array<[string, PolicyBatch, PolicyLoss]> = [
      ["GRPO (per-row means)", lastTokens, (lp) => fns.grpoPolicyLoss(lp, old, ref, rowAdvantages, completion, 0.2, 0.1)],
      ["PPO (token means + KL)", lastTokens, (lp) => tf.add(fns.ppoPolicyLoss(lp, old, tokenAdvantages, completion, 0.2), tf.mul(0.02, fns.referenceKlPenalty(lp, ref, completion))) as tf.Scalar],
      // Pair i is rows i and i + 2: with 3 ranks, rows 0 and 2 sit on ranks 0 and 2.
      ["DPO (pairs, tokenLogProbs)", { ids: pairIds, read: { labels } }, (lp) => fns.dpoLoss(pairRef, lp, pairMask, 0.15)],
    ];
    const pool = await GradientWorkers.start(3, { config, useReference: ["all"], backend: "wasm", policyFunctions: { ...POLICY_LOGPS_HOMES } });
    try {
      for (const [name, batch, lossOf] of cases) {
        const here = policyGradientsHere(model, fns, batch, variables, lossOf);
        const across = await policyGradientsAcross(pool, model, fns, batch, lossOf);
        expect(across.loss, name).toBeCloseTo(here.loss, 6);
        expect(tf.max(tf.abs(tf.sub(across.policyLogps, here.policyLogps))).dataSync()[0], name).toBeLessThanOrEqual(1e-5);
        const { gap, scale } = gradientGap(here, across);
        expect(scale, name).toBeGreaterThan(1e-3);
        // Measured: 1.5e-8 and 2.2e-8 at a largest element of 0.2 and 0.1 (float rounding).
        expect(gap, `${name}: largest gradient difference`).toBeLessThanOrEqual(1e-5 * scale);
        // The workers' rows carry their share: rank 0's rows alone give another gradient.
        const own = policyGradientsHere(model, fns, batch, variables, (lp) => lossOf(tf.mul(lp, tf.tensor2d(Float32Array.from({ length: lp.size }, (_, i) => (Math.floor(i / lp.shape[1]) % 3 === 0 ? 1 : 0)), lp.shape))));
        expect(gradientGap(here, own).gap, `${name}: the other ranks' rows matter`).toBeGreaterThan(1e-3 * scale);
        [here, across, own].forEach(disposeStep);
      }
    } finally {
      pool.close();
      model.dispose();
    }
  }, 120_000);
});

/** `npm run train -- ...` with the wasm backend. */
function train(args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 280_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

const STEPS = 4;
/** A short CLI run on the micro model: 2 prompts × 4 samples (PPO: 1), 6 new tokens a step. */
const rlArgs = (stage: string, workers: number, out: string) => [stage, "--config", "micro", "--steps", String(STEPS), "--batch-size", "2", "--num-generations", stage === "ppo" ? "1" : "4", "--max-new-tokens", "6", "--eval-every", "100", "--save-every", "1", "--task", "count", "--workers", String(workers), "--use-reference", "all", "--out", out];
type History = Array<{ step: number; loss: number; klRef: number; rewardMean: number }>;
const history = (dir: string) => JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).history as History;
/**
 * Two workers vs one on the same rollouts: per-step losses and KLs agree to float rounding (the
 * ranks' partial sums add in another order; measured: GRPO the same bits, PPO ≤ 1e-4 of the
 * value by step 4), and the rollouts, sampled in rank 0 from weights that agree to rounding, give
 * the same tokens. Dropping the workers' share of the gradient moved step 2's loss by 30-500%
 * and flipped its sign (measured).
 */
const RELATIVE_TOLERANCE = 1e-3;

function expectSameCurve(a: History, b: History): void {
  expect(b.map((h) => h.step)).toEqual(a.map((h) => h.step));
  a.forEach((h, i) => {
    expect(b[i].rewardMean, `step ${h.step} reward`).toBe(h.rewardMean);
    for (const key of ["loss", "klRef"] as const) expect(Math.abs(b[i][key] - h[key]), `step ${h.step} ${key}: ${b[i][key]} vs ${h[key]}`).toBeLessThanOrEqual(RELATIVE_TOLERANCE * Math.abs(h[key]) + 1e-9);
  });
}

describe("npm run train -- grpo|ppo|async|agent --workers 2", () => {
  for (const algorithm of [grpo, ppo, asyncPpo]) {
    it(`${algorithm.name}: two workers follow the one-process run (${STEPS} steps, |Δ| ≤ ${RELATIVE_TOLERANCE} of the value)`, async () => {
      // A seeded model answers nothing right: a reward that varies with the response's length gives
      // the update a signal (the advantages are not all 0) without a trained start model.
      const lengthReward = (text: string) => (text.length % 5) / 5;
      const run = async (workers: number) => {
        const outDir = join(work, `${algorithm.name}-${workers}`);
        const { exitCode } = await runRl({
          algorithm,
          configName: "micro",
          outDir,
          useReference: ["all"],
          workers,
          replaceFunctions: { repetitionPenalty: lengthReward },
          overrides: { steps: STEPS, promptsPerStep: algorithm === ppo ? 4 : 2, numGenerations: algorithm === ppo ? 1 : 4, maxNewTokens: 6, evalLimit: 2, evalEvery: 100, saveEvery: 100, task: ["count"], reward: "task+rep", learningRate: 1e-3 },
        });
        expect(exitCode).toBe(0);
        return history(outDir);
      };
      const [a, b] = [await run(1), await run(2)];
      expect(a).toHaveLength(STEPS);
      // The rewards vary and the steps move the policy away from the reference, so agreeing means something.
      expect(a.some((h) => h.loss !== 0)).toBe(true);
      expect(a[STEPS - 1].klRef).toBeGreaterThan(1e-4);
      expectSameCurve(a, b);
    }, 300_000);
  }

  it("grpo: Ctrl-C saves and SIGKILL leaves no worker and no all-reduce folder; each --resume continues, ending on the uninterrupted curve", async () => {
    const dir = join(work, "grpo-interrupted");
    const args = rlArgs("grpo", 2, dir);
    const stopped = await interruptedRun(ROOT, env, args, 1, "SIGINT");
    expect(stopped.code, stopped.out).toBe(130);
    expect(stopped.out).toMatch(/Ctrl-C: saved/);
    expect(stopped.workers.length).toBe(1);
    expect(await gone(stopped.workers), "the worker exits with rank 0").toBe(true);
    expect(allReduceFolders(stopped.pid)).toEqual([]);

    const killed = await interruptedRun(ROOT, env, [...args, "--resume", dir], 3, "SIGKILL");
    expect(killed.signal, killed.out).toBe("SIGKILL");
    expect(killed.out).toMatch(/Resuming .* at step [12] of 4/);
    expect(killed.workers.length).toBe(1);
    expect(await gone(killed.workers), "the worker exits when rank 0 is killed").toBe(true);
    expect(allReduceFolders(killed.pid), "the worker removes the all-reduce folder rank 0 could not").toEqual([]);

    const resumed = train([...args, "--resume", dir]);
    expect(resumed.status, resumed.out).toBe(0);
    expect(resumed.out).toMatch(/Resuming .* at step [23] of 4/);
    const uninterrupted = join(work, "grpo-cli");
    expect(train(rlArgs("grpo", 2, uninterrupted)).status).toBe(0);
    expectSameCurve(history(uninterrupted), history(dir));
  }, 300_000);

  it("refuses a replaced policy function with --workers (the workers resolve their own)", async () => {
    const replaced = runRl({ algorithm: grpo, configName: "micro", outDir: join(work, "replaced"), useReference: ["all"], workers: 2, replaceFunctions: { perTokenLogps: () => undefined }, overrides: { steps: 1 } });
    await expect(replaced).rejects.toThrow(/--workers: the workers resolve perTokenLogps themselves/);
    expect(existsSync(join(work, "replaced", "run.json"))).toBe(false);
  });

  it("agent: a two-worker step takes the one-process step's loss and KL", () => {
    const pre = train(["pretrain", "--config", "micro", "--steps", "2", "--out", join(work, "pre"), "--use-reference", "all"]);
    expect(pre.status, pre.out).toBe(0);
    const run = (workers: number) => {
      const out = join(work, `agent-${workers}`);
      const r = train(["agent", "--config", "micro", "--steps", "1", "--batch-size", "1", "--workers", String(workers), "--from", join(work, "pre", "pretrain_16.safetensors"), "--out", out, "--use-reference", "all"]);
      expect(r.status, r.out.slice(-3000)).toBe(0);
      return JSON.parse(readFileSync(join(out, "run.json"), "utf8")).log[0] as { loss: number; kl: number; rewardMean: number };
    };
    const [a, b] = [run(1), run(2)];
    expect(b.rewardMean).toBe(a.rewardMean);
    for (const key of ["loss", "kl"] as const) expect(Math.abs(b[key] - a[key]), `${key}: ${b[key]} vs ${a[key]}`).toBeLessThanOrEqual(RELATIVE_TOLERANCE * Math.abs(a[key]) + 1e-9);
  }, 300_000);
});
