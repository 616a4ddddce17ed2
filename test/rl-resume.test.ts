/**
 * `npm run train -- grpo|ppo --resume DIR` on the `micro` config, cpu backend: a run stopped after
 * step K (Ctrl-C) and resumed to N ends with the same weight bits as a run of N straight steps, and
 * its run.json covers every step; a CLI run SIGKILLed after a save resumes and completes; a folder
 * without a resume file, conflicting settings, or a missing/changed --from exit 2 with a message.
 * A stand-in repetition penalty that varies with the text gives the seeded model rewards that
 * differ within a group, so the steps really move the weights (the task reward alone is 0 for it).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { initBackend } from "../lib/backend.js";
import { runRl, type RlAlgorithm, type RlRunOptions } from "../lib/rl/run.js";
import grpo from "../lib/rl/algorithms/grpo.js";
import ppo from "../lib/rl/algorithms/ppo.js";
import { TrainError } from "../lib/train/errors.js";

let work: string;
beforeAll(async () => {
  process.env.COURSE_BACKEND = "cpu";
  await initBackend("cpu");
  work = mkdtempSync(join(tmpdir(), "course-rl-resume-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SETTINGS: RlRunOptions["overrides"] = { steps: 3, promptsPerStep: 2, numGenerations: 2, maxNewTokens: 3, evalLimit: 2, evalEvery: 2, saveEvery: 1, task: ["count"], reward: "task+rep", miniBatchSize: 2, updateIters: 1 };
const varyingPenalty = (text: string) => (text.length % 4) / 4;

const run = (algorithm: RlAlgorithm, outDir: string, extra: Partial<RlRunOptions> = {}) =>
  runRl({ algorithm, configName: "micro", outDir, useReference: ["all"], overrides: SETTINGS, replaceFunctions: { repetitionPenalty: varyingPenalty }, ...extra });

type History = Array<Record<string, unknown> & { step: number; seconds: number; extra?: Record<string, number> }>;
const report = (dir: string) => JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as { history: History; accuracy: { curve: Array<[number, number]> }; resumedFrom: number | null };
const withoutTimes = (h: History) => h.map(({ seconds: _s, ...rest }) => rest);

/** Straight N steps vs Ctrl-C after step 1 and --resume: the same weights, bit for bit, and the same history. */
async function straightVsResumed(alg: RlAlgorithm, fromPath?: string): Promise<{ straight: string; resumed: string }> {
  const straight = join(work, `${alg.name}-straight`);
  const resumed = join(work, `${alg.name}-resumed`);
  expect((await run(alg, straight, { fromPath })).exitCode).toBe(0);
  const stopped = await run(alg, resumed, { fromPath, interruptAt: 1 });
  expect(stopped.exitCode).toBe(130);
  expect(existsSync(join(resumed, `${alg.weightName}_16_resume.safetensors`))).toBe(true);
  expect(existsSync(join(resumed, "run.json"))).toBe(false);
  expect((await run(alg, resumed, { resumeDir: resumed })).exitCode).toBe(0);
  const file = `${alg.weightName}_16.safetensors`;
  expect(readFileSync(join(resumed, file)).equals(readFileSync(join(straight, file))), `${alg.name}: resumed weights differ from straight`).toBe(true);
  const a = report(straight);
  const b = report(resumed);
  expect(b.resumedFrom).toBe(1);
  expect(b.history.map((h) => h.step)).toEqual([1, 2, 3]);
  expect(withoutTimes(b.history)).toEqual(withoutTimes(a.history));
  expect(b.accuracy.curve).toEqual(a.accuracy.curve);
  // Not a vacuous comparison: the rewards differed within groups, so the steps had gradients.
  expect(a.history.some((h) => (h.rewardStd as number) > 0)).toBe(true);
  return { straight, resumed };
}

describe("npm run train -- grpo|ppo --resume (micro, cpu)", () => {
  it("grpo: Ctrl-C after step 1 then --resume ends bit-exactly where 3 straight steps end", async () => {
    const { straight } = await straightVsResumed(grpo);
    expect(report(straight).history.some((h) => (h.extra?.grad_norm ?? 0) > 0)).toBe(true);
  }, 60_000);

  it("ppo (critic and its AdamW in the resume file) resumes bit-exactly from --from weights; bad resumes exit 2", async () => {
    const from = join(work, "from.safetensors");
    copyFileSync(join(work, "grpo-straight", "grpo_16.safetensors"), from);
    const { resumed } = await straightVsResumed(ppo, from);

    const refused = async (opts: Partial<RlRunOptions>, message: RegExp) => {
      const err = await run(ppo, join(work, "unused"), opts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TrainError);
      expect((err as TrainError).exitCode).toBe(2);
      expect((err as Error).message).toMatch(message);
    };
    const empty = join(work, "empty");
    await refused({ resumeDir: work }, /no ppo resume checkpoint there/);
    await refused({ resumeDir: empty }, /no such folder/);
    await refused({ resumeDir: resumed, overrides: { ...SETTINGS, beta: 0.5 } }, /settings conflict with the saved run \(beta 0\.02 there, 0\.5 on the command line\)/);
    await refused({ resumeDir: resumed, configName: "tiny" }, /--config micro there, tiny on the command line/);
    writeFileSync(from, Buffer.concat([readFileSync(from), Buffer.from(" ")]));
    await refused({ resumeDir: resumed }, /frozen reference .* changed since the run started/);
    unlinkSync(from);
    await refused({ resumeDir: resumed }, /frozen reference .* is missing/);
  }, 90_000);

  it("a CLI run SIGKILLed after a save resumes and completes, its run.json covering every step", async () => {
    const dir = join(work, "killed");
    const args = ["grpo", "--config", "micro", "--steps", "3", "--batch-size", "2", "--num-generations", "2", "--max-new-tokens", "3", "--task", "count", "--save-every", "1", "--eval-every", "100", "--out", dir];
    const cli = (argv: string[], killWhenSaved: boolean) =>
      new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...argv], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "cpu" } });
        let out = "";
        const timer = killWhenSaved ? setInterval(() => existsSync(join(dir, "grpo_16_resume.safetensors")) && child.kill("SIGKILL"), 5) : undefined;
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code, signal) => {
          clearInterval(timer);
          resolve({ code, signal, out });
        });
      });
    const killed = await cli(args, true);
    expect(killed.signal, killed.out).toBe("SIGKILL");
    const resumed = await cli(["grpo", "--resume", dir], false);
    expect(resumed.code, resumed.out).toBe(0);
    expect(resumed.out).toMatch(/Resuming .*grpo_16_resume\.safetensors at step [123] of 3/);
    const r = report(dir);
    expect(r.history.map((h) => h.step)).toEqual([1, 2, 3]);
    expect(r.resumedFrom).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
