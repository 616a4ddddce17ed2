/**
 * Lesson 26's measuring tools: tools/rl/agent-rl.ts passes the settings `npm run train -- agent`
 * does not take on to the agent run (run.json records them), tools/rl/agent-eval.ts counts the
 * verdicts of every held-out trajectory it ran, and both answer bad input with a message and exit 2 (1 for a missing file), never a stack trace.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "course-agent-tools-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = (script: string, args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "wasm", FORCE_COLOR: "0" }, encoding: "utf8", timeout: 300_000 });

describe("bad input", () => {
  it.each([
    ["tools/rl/agent-rl.ts", ["--beta", "-1"], 2, /--beta must be a number ≥ 0/],
    ["tools/rl/agent-rl.ts", ["--num-generations", "2.5"], 2, /--num-generations must be a whole number/],
    ["tools/rl/agent-rl.ts", ["--loss-type", "ppo"], 2, /--loss-type must be cispo or grpo/],
    ["tools/rl/agent-rl.ts", ["--config", "micro", "--use-reference", "all"], 2, /starts from an SFT model .* --from/],
    ["tools/rl/agent-eval.ts", [join("runs", "no-such-dir", "x.safetensors")], 1, /no such weights file/],
    ["tools/rl/agent-eval.ts", ["a", "b"], 2, /one weights file/],
  ])("%s %j exits %i", (script, args, status, message) => {
    const r = node(script, args);
    expect(r.status, r.stdout + r.stderr).toBe(status);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("on the micro model", () => {
  let weights: string;
  beforeAll(() => {
    const pre = node("tools/train/cli.ts", ["pretrain", "--config", "micro", "--steps", "2", "--out", join(work, "pre"), "--use-reference", "all"]);
    expect(pre.status, pre.stderr).toBe(0);
    weights = join(work, "pre", "pretrain_16.safetensors");
  }, 300_000);

  it("agent-eval gives every trajectory one call verdict and one answer verdict", () => {
    const out = join(work, "eval.json");
    const r = node("tools/rl/agent-eval.ts", [weights, "--tasks", "3", "--transcripts", "2", "--json", out, "--use-reference", "all"]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, "utf8"));
    for (const mode of ["greedy", "sampled"]) {
      expect(Object.values(report[mode].cells as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(3);
      expect(report[mode].transcripts).toHaveLength(2);
    }
    expect(r.stdout).toMatch(/greedy: accuracy [\d.]+%, tool calls [\d.]+%, malformed [\d.]+%/);
  }, 300_000);

  it("agent-rl runs with the settings it was given", () => {
    const out = join(work, "rl");
    const r = node("tools/rl/agent-rl.ts", ["--config", "micro", "--from", weights, "--out", out, "--steps", "1", "--batch-size", "1", "--num-generations", "2", "--beta", "0.05", "--temperature", "0.6", "--use-reference", "all"]);
    expect(r.status, `${r.stdout.slice(-2000)}\n${r.stderr}`).toBe(0);
    const run = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    expect(run.settings).toMatchObject({ numGenerations: 2, beta: 0.05, temperature: 0.6, steps: 1, batchSize: 1 });
  }, 300_000);
});
