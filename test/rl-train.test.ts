/**
 * The RL stages of `npm run train` (dpo, ppo, grpo): a few steps on the `micro` config from a
 * seeded model on the cpu backend. The loop runs, logs every metric, saves weights, curves and
 * run.json; a loss that turns NaN (a learner's function that passes grading but diverges) stops
 * the run naming the step and the metric, with the last checkpoint kept; bad options exit 2.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { ROOT } from "../grader/engine/paths.js";
import { initBackend } from "../lib/backend.js";
import { DivergenceError, runRl, type RlRunOptions } from "../lib/rl/run.js";
import grpo from "../lib/rl/algorithms/grpo.js";
import ppo from "../lib/rl/algorithms/ppo.js";
import dpo from "../lib/rl/algorithms/dpo.js";
import { exactMatch, extractAnswer } from "../lib/rl/tasks.js";
import { partialCredit } from "../lib/rl/rewards.js";
import { leftPad } from "../lib/rl/rollout.js";

let work: string;
beforeAll(async () => {
  process.env.COURSE_BACKEND = "cpu";
  await initBackend("cpu");
  work = mkdtempSync(join(tmpdir(), "course-rl-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A short run: micro model, 2 prompts × 2 samples, 3 new tokens, 2 held-out prompts. */
const quick = (over: Partial<RlRunOptions> = {}, settings: RlRunOptions["overrides"] = {}): RlRunOptions => ({
  algorithm: grpo,
  configName: "micro",
  outDir: join(work, over.algorithm?.name ?? "grpo"),
  useReference: ["all"],
  overrides: { steps: 2, promptsPerStep: 2, numGenerations: 2, maxNewTokens: 3, evalLimit: 2, evalEvery: 100, saveEvery: 1, task: ["count"], miniBatchSize: 2, ...settings },
  ...over,
});

describe("task checks and rollout layout", () => {
  it("reads the answer after a think block and without 'The answer is'", () => {
    expect(extractAnswer("<think>\nx\n</think>\n\nThe answer is noollab.")).toBe("noollab");
    expect(exactMatch(" 12 ", "12")).toBe(1);
    expect(exactMatch("HELLO", "hello")).toBe(0);
  });
  it("gives partial credit for list items in place, 1 only for the exact answer", () => {
    expect(partialCredit("The answer is 41, 75, 47.", "41, 47, 75")).toBeCloseTo(1 / 3);
    expect(partialCredit("The answer is 41, 47, 75.", "41, 47, 75")).toBe(1);
    expect(partialCredit("41, 47, 75, 80", "41, 47, 75")).toBe(0.75);
    expect(partialCredit("47, 41", "41, 47, 75")).toBe(0);
    expect(partialCredit("12", "12")).toBe(1);
  });
  it("left-pads prompts to the longest", () => {
    expect(leftPad([[5, 6], [7]], 0)).toEqual({ ids: [[5, 6], [0, 7]], mask: [[1, 1], [0, 1]], length: 2 });
  });
});

describe("npm run train -- grpo|ppo (micro, cpu)", () => {
  it("grpo runs, logs every metric each step, and writes weights, curves and run.json", async () => {
    const before = tf.memory().numTensors;
    const { exitCode, report } = await runRl(quick());
    expect(exitCode).toBe(0);
    expect(tf.memory().numTensors).toBe(before);
    const dir = join(work, "grpo");
    for (const f of ["grpo_16.safetensors", "reward.svg", "kl.svg", "run.json"]) expect(existsSync(join(dir, f)), f).toBe(true);
    const run = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    expect(run.history).toHaveLength(2);
    for (const key of ["loss", "rewardMean", "rewardStd", "accuracy", "klRef", "clipFraction", "entropy", "responseLength", "seconds"]) expect(typeof run.history[0][key], key).toBe("number");
    expect(run.functions.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["grpoPolicyLoss", "groupRelativeAdvantages", "perTokenLogps"]));
    expect(report.accuracy).toMatchObject({ before: expect.any(Number), after: expect.any(Number) });
  }, 60_000);

  it("ppo runs with its critic and logs approx-KL and the value loss", async () => {
    const { exitCode, report } = await runRl(quick({ algorithm: ppo }, { steps: 1, numGenerations: 1, promptsPerStep: 2 }));
    expect(exitCode).toBe(0);
    const h = (report.history as Array<{ extra: Record<string, number> }>)[0];
    expect(Object.keys(h.extra)).toEqual(expect.arrayContaining(["value_loss", "approx_kl"]));
    expect(existsSync(join(work, "ppo", "ppo_actor_16.safetensors"))).toBe(true);
  }, 60_000);

  it("a loss that turns NaN stops the run at that step, naming it and keeping the last checkpoint", async () => {
    // A stand-in loss that trains (−mean log π) on step 1 and turns NaN from step 2 on.
    let calls = 0;
    const diverging = (policyLogps: tf.Tensor2D) => tf.mul(tf.neg(tf.mean(policyLogps)), ++calls >= 2 ? NaN : 1);
    const outDir = join(work, "nan");
    const err = await runRl(quick({ outDir, replaceFunctions: { cispoPolicyLoss: diverging } }, { steps: 3 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DivergenceError);
    expect((err as Error).message).toMatch(/diverged at step 2: the loss is NaN/);
    expect((err as Error).message).toMatch(/The last checkpoint \(step 1\) is kept/);
    expect(existsSync(join(outDir, "grpo_16.safetensors"))).toBe(true);
  }, 60_000);

  it("dpo says clearly when the start model gives no (right, wrong) pair", async () => {
    const err = await runRl(quick({ algorithm: dpo }, { steps: 1 })).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/no prompt had both a right and a wrong sample/);
  }, 60_000);
});

describe("npm run train: RL options", () => {
  const cli = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "cpu" }, encoding: "utf8", timeout: 60_000 });
  it("rejects an unknown task kind, --resume of a missing folder, a bad loss type and options of the wrong stage with exit 2 and no stack trace", () => {
    for (const [args, message] of [
      [["grpo", "--task", "juggle"], /unknown task kind "juggle"/],
      [["ppo", "--resume", "runs/x"], /--resume runs\/x: no such folder/],
      [["grpo", "--loss-type", "ppo"], /--loss-type must be grpo or cispo/],
      [["agent", "--temperature", "0.5"], /--temperature is an option of the RL stages .*; agent does not take it/],
      [["sft", "--reward", "partial"], /--reward is an option of the RL stages/],
      [["grpo", "--stop-after", "3"], /--stop-after is for pretrain, sft/],
    ] as const) {
      const r = cli([...args]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
