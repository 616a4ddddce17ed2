/**
 * The agent stage (`npm run train -- agent`, lib/rl/agent-*.ts): the calculator tool is exact and
 * refuses anything that is not arithmetic, the answer check reads numbers the way the reward does,
 * bad input gets a clear message and exit 2, and a one-step run on the micro model writes its
 * weights, curve and run.json with held-out tool use before and after and whose functions ran.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { calculate, executeTool, formatNumber, statesNumber } from "../lib/rl/agent-tools.js";

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "course-agent-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The wasm backend: multi-turn rollouts and their evaluations are too slow on the cpu one. */
const train = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "tools/train/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "wasm", FORCE_COLOR: "0" }, encoding: "utf8", timeout: 300_000 });

describe("the calculator tool", () => {
  it("evaluates + − × ÷, precedence, parentheses and unary signs exactly", () => {
    expect(calculate("8958*132")).toBe(1182456);
    expect(calculate("4212 - 810")).toBe(3402);
    expect(calculate("8451 × 764")).toBe(6456564);
    expect(calculate("2+3*4")).toBe(14);
    expect(calculate("(2+3)*4")).toBe(20);
    expect(calculate("-3 + -(2)")).toBe(-5);
    expect(calculate("7 ÷ 2")).toBe(3.5);
    expect(formatNumber(1 / 3)).toBe("0.333333");
  });
  it("refuses code, unknown characters and division by zero", () => {
    expect(() => calculate("__import__('os')")).toThrow(/expected a number/);
    expect(() => calculate("2**10")).toThrow(/expected a number/);
    expect(() => calculate("1/0")).toThrow(/not a finite number/);
    expect(() => calculate("(1+2")).toThrow(/expected \)/);
    expect(() => calculate("3 4")).toThrow(/unexpected text/);
  });
  it("answers a call with the bare value, or MiniMind's error object", () => {
    expect(executeTool("calculate", { expression: "592*96" })).toBe("56832");
    expect(executeTool("calculate", { expression: "oops" })).toBe('{"error": "tool not found"}');
    expect(executeTool("search", { q: "x" })).toBe('{"error": "tool not found"}');
    expect(executeTool("calculate", {})).toBe('{"error": "tool not found"}');
  });
  it("finds a stated number: commas removed, not glued to letters or other digits", () => {
    expect(statesNumber("592 × 96 = 56,832.", "56832")).toBe(true);
    expect(statesNumber("x56832", "56832")).toBe(false);
    expect(statesNumber("568321", "56832")).toBe(false);
    expect(statesNumber("56832.5", "56832")).toBe(false);
  });
});

describe("npm run train -- agent", () => {
  it("needs --from, and says so with exit 2", () => {
    const r = train(["agent", "--config", "micro", "--out", join(work, "nofrom"), "--use-reference", "all"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/starts from an SFT model .* --from/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
  it("runs a step on the micro model and writes weights, agent.svg and run.json", () => {
    const pre = train(["pretrain", "--config", "micro", "--steps", "2", "--out", join(work, "pre"), "--use-reference", "all"]);
    expect(pre.status, pre.stderr).toBe(0);
    const out = join(work, "agent");
    const r = train(["agent", "--config", "micro", "--steps", "1", "--batch-size", "1", "--from", join(work, "pre", "pretrain_16.safetensors"), "--out", out, "--use-reference", "all"]);
    expect(r.status, `${r.stdout.slice(-2000)}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/agentReward\s+lesson-26\s+reference/);
    for (const f of ["agent_16.safetensors", "agent.svg", "run.json"]) expect(existsSync(join(out, f)), f).toBe(true);
    const run = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    expect(run.steps).toBe(1);
    expect(typeof run.heldOut.before.toolCallRate).toBe("number");
    expect(typeof run.heldOut.after.accuracy).toBe("number");
    expect(run.functions.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(["parseToolCalls", "agentLossMask", "agentReward", "cispoPolicyLoss"]));
  }, 300_000);
});
