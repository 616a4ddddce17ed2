/**
 * The grader's command line as a learner meets it: exit codes, the usage message, JSON output,
 * and backend errors. (It grades solutions/ here: exercises/ belongs to the learner.)
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";

function grade(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0", ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("npm run grade", () => {
  it("exits 2 and lists the graded lessons for an unknown lesson", () => {
    const r = grade(["lesson-99"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown lesson "lesson-99"\. Lessons with graded exercises: .*lesson-23/);
    expect(r.err).not.toMatch(/at .*\.ts:\d+/);
  });

  it("exits 2 for an unknown option", () => {
    const r = grade(["lesson-23", "--colour"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown option --colour/);
  });

  it("exits 2 with the reason when the backend cannot start", () => {
    const r = grade(["lesson-23", "--solutions"], { COURSE_BACKEND: "tensorflow" });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/COURSE_BACKEND=tensorflow needs @tensorflow\/tfjs-node-gpu/);
  });

  it("exits 0 when every case passes, with one line a function", () => {
    const r = grade(["lesson-23", "--solutions"]);
    expect(r.code).toBe(0);
    for (const fn of ["responseLogpPositions", "maskedGae", "ppoPolicyLoss", "referenceKlPenalty", "clippedValueLoss"]) expect(r.out).toMatch(new RegExp(`✓ ${fn}\\s+passed`));
    expect(r.out).toMatch(/5\/5 functions pass · cpu backend/);
  });

  it("--json prints one entry a case with name, status and message", () => {
    const r = grade(["lesson-23", "maskedGae", "--solutions", "--json"]);
    expect(r.code).toBe(0);
    const cases = JSON.parse(r.out) as Array<{ name: string; status: string; exercise: string }>;
    expect(cases.length).toBeGreaterThanOrEqual(8);
    expect(cases.every((c) => c.exercise === "maskedGae" && c.status === "passed" && typeof c.name === "string")).toBe(true);
  });
});
