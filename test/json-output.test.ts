/**
 * Machine-readable results that a script can parse as they come (issue 22, item 8): `npm run -s`
 * keeps npm's banner off stdout, and --json-file writes the JSON to a file.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { scratch } from "./support/workspace.js";

const env = () => ({ ...process.env, FORCE_COLOR: "0", COURSE_PROGRESS_FILE: join(scratch(), "progress.json") });

describe("JSON results", () => {
  it("npm run -s grade -- lesson-3 --json prints nothing but JSON", () => {
    const out = spawnSync("npm", ["run", "-s", "grade", "--", "lesson-3", "--json"], { cwd: ROOT, encoding: "utf8", env: env(), timeout: 120_000 });
    expect(out.status).toBe(1);
    const parsed = JSON.parse(out.stdout) as Array<{ lesson: string; name: string; status: string }>;
    expect(parsed.length).toBeGreaterThan(5);
    expect(parsed.every((r) => r.lesson === "lesson-3" && r.status === "not-implemented")).toBe(true);
  });

  it("--json-file writes the same JSON to a file and refuses a name that is not .json", () => {
    const file = join(scratch(), "results.json");
    const out = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-3", "--json-file", file], { cwd: ROOT, encoding: "utf8", env: env(), timeout: 120_000 });
    expect(out.status).toBe(1);
    expect(out.stdout).toBe("");
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Array<{ name: string }>;
    expect(parsed.length).toBeGreaterThan(5);
    const bad = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-3", "--json-file", join(scratch(), "notes.ts")], { cwd: ROOT, encoding: "utf8", env: env(), timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/give a \.json file name/);
  });
});
