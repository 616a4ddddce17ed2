/**
 * `npm run capstone -- --quick`: the whole pipeline runs (tokenizer, pretrain, SFT, and GRPO when
 * `npm run train` has it), exits 0, and report.html has every section; a second run reuses every
 * stage. No reward or accuracy threshold: CI checks that the pipeline works, not what it learns.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { SECTIONS } from "../lib/capstone/report.js";
import { STAGE_NAMES } from "../lib/train/stages/index.js";

let out: string;
beforeAll(() => {
  out = join(mkdtempSync(join(tmpdir(), "course-capstone-")), "capstone");
});
afterAll(() => rmSync(join(out, ".."), { recursive: true, force: true }));

const capstone = (args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "tools/capstone/cli.ts", "--quick", "--out", out, "--use-reference", "all", ...args], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: "0" },
    encoding: "utf8",
    timeout: 600_000,
  });

describe("npm run capstone -- --quick", () => {
  it("runs every stage and writes a report with every section", () => {
    const r = capstone([]);
    expect(r.status, `${r.stdout.slice(-3000)}\n${r.stderr}`).toBe(0);
    const html = readFileSync(join(out, "report.html"), "utf8");
    for (const id of SECTIONS) expect(html, id).toContain(`<section id="${id}">`);
    for (const stage of ["pretrain", "sft", ...(STAGE_NAMES.includes("grpo") ? ["grpo"] : [])]) {
      expect(existsSync(join(out, stage, "run.json")), stage).toBe(true);
      expect(html, stage).toContain(`after ${stage}`);
    }
    expect(html).toContain("<svg");
    expect(html).toMatch(/bytes per token/);
  }, 660_000);

  it("reuses finished stages on a second run", () => {
    const r = capstone([]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pretrain: reused/);
    expect(r.stdout).toMatch(/sft: reused/);
  }, 300_000);

  it("rejects an unknown optional stage with exit 2 and the usage", () => {
    const r = capstone(["--with", "ppo"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown stage ppo/);
  });
});
