/**
 * `npm run doctor`: one verdict a line (OK / WARN / MISSING, each not-OK line followed by its fix),
 * every essential check present, and exit 0 on this machine, where the essentials are installed.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";

describe("npm run doctor", () => {
  it("prints a verdict for every check and exits 0 when the essentials are there", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "tools", "doctor", "cli.ts")], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n").slice(2, -2).filter((l) => l.trim() !== "");
    for (const l of lines) expect(l).toMatch(/^(OK {5}|WARN {3}|MISSING) {2}\S|^ {9,}fix: /);
    const names = lines.filter((l) => !l.trim().startsWith("fix:")).map((l) => l.slice(9).split(/\s{2,}/)[0]);
    expect(names).toEqual(expect.arrayContaining(["Node.js", "npm packages", "backend cpu", "backend wasm", "backend tensorflow", "disk space", "chromium", "python3 + torch", "exercises"]));
    expect(r.stdout).toMatch(/^OK {5} {2}backend wasm +\d+×\d+ matMul: [\d.]+ GFLOP\/s/m);
  }, 120_000);
});
