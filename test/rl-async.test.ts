/**
 * The async RL stage (`npm run train -- async`, lib/rl/algorithms/async.ts) on the `micro` config:
 * the scheduler samples step t with the weights of version t − 1 − K, lesson 30's staleness equals K
 * once the pipeline is full, M2PO changes the loss mask only when it is on, the modelled wall time
 * of one generator beside one trainer, and bad flags exit 2 with a message.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { ROOT } from "../grader/engine/paths.js";
import { initBackend } from "../lib/backend.js";
import type { MiniMindTS } from "../lib/model/model.js";
import { runRl, type RlRunOptions } from "../lib/rl/run.js";
import { createAsyncAlgorithm } from "../lib/rl/algorithms/async.js";
import { behaviourVersion, modelledAsyncSeconds } from "../lib/rl/async-scheduler.js";
import { parseRlOptions } from "../lib/rl/cli-options.js";
import type { TrainError } from "../lib/train/errors.js";

let work: string;
beforeAll(async () => {
  process.env.COURSE_BACKEND = "cpu";
  await initBackend("cpu");
  work = mkdtempSync(join(tmpdir(), "course-rl-async-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type History = Array<{ step: number; loss: number; extra: Record<string, number> }>;

/** Advantages that alternate +1, −1 (the seeded micro model earns no reward, so lesson 24's would all be 0). */
const alternating = (rewards: tf.Tensor1D) => tf.tensor1d(Array.from({ length: rewards.shape[0] }, (_, i) => (i % 2 ? -1 : 1)));

/** A micro run: 2 prompts × 2 samples, 3 new tokens, 2 minibatches a step, 2 held-out prompts. */
const run = (name: string, settings: Record<string, unknown>, algorithm = createAsyncAlgorithm()) =>
  runRl({
    algorithm,
    configName: "micro",
    outDir: join(work, name),
    useReference: ["all"],
    replaceFunctions: { groupRelativeAdvantages: alternating },
    overrides: { steps: 4, promptsPerStep: 2, numGenerations: 2, maxNewTokens: 3, evalLimit: 2, evalEvery: 100, saveEvery: 100, task: ["count"], miniBatchSize: 2, learningRate: 1e-2, ...settings } as RlRunOptions["overrides"],
  });

/** A fingerprint of a model's weights. */
const fingerprint = (m: MiniMindTS) => Object.values(m.params).reduce((a, v) => a + tf.tidy(() => tf.sum(tf.mul(v, v)).dataSync()[0]), 0);

describe("npm run train -- async (micro, cpu)", () => {
  let m2poOff: History = [];
  it("samples step t with the weights the policy had at the start of step t − K, and reports staleness K once the pipeline is full", async () => {
    const K = 2;
    const policyAt: number[] = [];
    const samplerAt: number[] = [];
    const algorithm = createAsyncAlgorithm({
      observe: (o) => {
        policyAt[o.step] = fingerprint(o.policy);
        samplerAt[o.step] = fingerprint(o.sampler);
      },
    });
    const before = tf.memory().numTensors;
    const { exitCode, report } = await run("k2", { staleness: K, proxMethod: "recompute" }, algorithm);
    expect(exitCode).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
    // The policy changes every step, so each fingerprint names one version.
    for (let t = 2; t <= 4; t++) expect(policyAt[t]).not.toBe(policyAt[t - 1]);
    // Version v is the policy at the start of step v + 1; step t samples with version max(0, t − 1 − K).
    for (let t = 1; t <= 4; t++) expect(samplerAt[t], `step ${t}`).toBe(policyAt[Math.max(0, t - 1 - K) + 1]);
    const h = report.history as History;
    expect(h.map((x) => x.extra.behave_version)).toEqual([0, 0, 0, 1]);
    expect(h.map((x) => x.extra.staleness)).toEqual([0, 1, 2, 2]);
    expect(h.map((x) => x.extra.staleness_max)).toEqual([0, 1, 2, 2]);
    for (const x of h) for (const key of ["gen_s", "train_s", "behave_capped", "m2po_masked", "areal_clip"]) expect(Number.isFinite(x.extra[key]), key).toBe(true);
    const a = report.async as Record<string, number | string>;
    expect(a.staleness).toBe(K);
    expect(a.modelledNote).toMatch(/not measured/);
    expect(Number(a.modelledAsyncWallSeconds)).toBeLessThanOrEqual(Number(a.measuredWallSeconds) + 0.1);
    const json = JSON.parse(readFileSync(join(work, "k2", "run.json"), "utf8"));
    expect(json.async.modelledAsyncStepSeconds).toBe(a.modelledAsyncStepSeconds);
    expect(json.functions.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["decoupledPpoLoss", "proxLogpApproximations", "stalenessStats", "m2poMask"]));
    m2poOff = h;
  }, 60_000);

  it("M2PO masks tokens only when it is on, and only once the batch is stale", async () => {
    const on = (await run("m2po-on", { staleness: 2, proxMethod: "recompute", m2po: true, m2Threshold: 1e-9 })).report.history as History;
    expect(m2poOff.map((x) => x.extra.m2po_masked)).toEqual([0, 0, 0, 0]);
    // Step 1 samples with the policy itself: behaviour and proximal log-probs agree, nothing is masked.
    expect(on[0].extra.m2po_masked).toBe(0);
    expect(on[0].loss).toBe(m2poOff[0].loss);
    expect(on[0].loss).not.toBe(0);
    for (const i of [1, 2, 3]) {
      expect(on[i].extra.m2po_masked, `step ${i + 1}`).toBeGreaterThan(0);
      expect(on[i].loss).not.toBe(m2poOff[i].loss);
    }
  }, 60_000);

  it("at K = 0 the approximated proximal policy is the recomputed one (a synchronous run)", async () => {
    const approx = (await run("sync-approx", { staleness: 0, steps: 1 })).report.history as History;
    const recompute = (await run("sync-recompute", { staleness: 0, steps: 1, proxMethod: "recompute" })).report.history as History;
    expect(approx[0].extra.staleness).toBe(0);
    expect(approx[0].loss).not.toBe(0);
    expect(approx[0].loss).toBeCloseTo(recompute[0].loss, 6);
  }, 60_000);
});

describe("the modelled wall time of one generator beside one trainer", () => {
  it("is Σ(gen + train) at K = 0, and the first generation plus Σ max(gen, train) once they overlap", () => {
    expect(modelledAsyncSeconds([1, 1, 1], [2, 2, 2], 0)).toBe(9);
    expect(modelledAsyncSeconds([1, 1, 1], [2, 2, 2], 1)).toBe(7);
    expect(modelledAsyncSeconds([3, 3, 3], [1, 1, 1], 4)).toBe(10);
    expect(behaviourVersion(1, 8)).toBe(0);
    expect(behaviourVersion(12, 8)).toBe(3);
  });
});

describe("npm run train -- async: bad flags", () => {
  it("refuse bad values, and async options on another stage, with exit 2", () => {
    const parse = (values: Record<string, unknown>, stage: string) => () => parseRlOptions(values as Record<string, string>, {}, undefined, stage);
    for (const [values, stage, message] of [
      [{ staleness: "1.5" }, "async", /--staleness must be an integer from 0 to 32/],
      [{ staleness: "" }, "async", /--staleness must be an integer/],
      [{ prox: "exact" }, "async", /--prox must be approx .* or recompute/],
      [{ "m2-threshold": "0.1" }, "async", /pass --m2po too/],
      [{ m2po: true, "m2-threshold": "-1" }, "async", /--m2-threshold must be a number > 0/],
      [{ resume: "runs/x" }, "async", /does not resume/],
      [{ staleness: "4" }, "grpo", /--staleness is an option of the async stage/],
    ] as const) {
      expect(parse(values, stage)).toThrow(message);
      try {
        parse(values, stage)();
      } catch (e) {
        expect((e as TrainError).exitCode).toBe(2);
      }
    }
    expect(parseRlOptions({ staleness: "8", prox: "recompute", m2po: true } as unknown as Record<string, string>, {}, undefined, "async")).toMatchObject({ staleness: 8, proxMethod: "recompute", m2po: true });
  });
  it("the command line exits 2 with the message and no stack trace", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", "async", "--staleness", "40"], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "cpu" }, encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--staleness must be an integer from 0 to 32/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
