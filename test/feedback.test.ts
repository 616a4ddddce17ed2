/**
 * What a report tells a learner (issue 9): the learner's line and the op behind an error thrown
 * deep inside TensorFlow.js, a syntax error once with its line, every differing output of a
 * several-output function, and where a scalar loss goes wrong.
 */
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { gradeIsolated } from "../grader/engine/isolate.js";
import { ROOT } from "../grader/engine/paths.js";
import { workspace } from "./support/workspace.js";

const grade = (dir: string, lesson = "lesson-23", only?: string[]) => gradeIsolated({ lesson, implDir: join(dir, lesson), hints: true, only }, { caseTimeoutMs: 5000 });

describe("errors and load failures", () => {
  it("an error thrown inside a tfjs op names the learner's line and the op", async () => {
    const dir = workspace(`
export function responseLogpPositions(promptLens: tf.Tensor1D, responseLen: number) {
  const start = tf.sub(promptLens, tf.scalar(1, "int32"));
  const j = tf.range(0, responseLen, 1, "int32");
  return tf.add(start, j);
}`);
    const run = await grade(dir, "lesson-23", ["responseLogpPositions"]);
    const r = run.results.find((x) => x.case.startsWith("worked example"))!;
    expect(r.status).toBe("error");
    expect(r.message).toMatch(/^tf\.add: Operands could not be broadcast together with shapes 2 and 4/);
    expect(r.location).toBe(`${relative(ROOT, dir)}/lesson-23/ppo.ts:6:13`);
  });

  it("a syntax error is one load error with its file:line:column and the line, not one message a case", async () => {
    const dir = workspace(`export function maskedGae( {\n  return 1;\n}`);
    const run = await grade(dir);
    expect(run.results.every((r) => r.status === "error" && r.loadError)).toBe(true);
    expect(new Set(run.results.map((r) => r.message)).size).toBe(1);
    expect(run.results[0].message).toMatch(new RegExp(`${relative(ROOT, dir)}/lesson-23/ppo\\.ts:3:\\d+: .*\\n\\s+return 1;|ppo\\.ts:\\d+:\\d+: `));
    const { formatLessonReport } = await import("../grader/report.js");
    const { summarise } = await import("../grader/engine/summary.js");
    const text = formatLessonReport("lesson-23", summarise(run.results), { verbose: true });
    expect(text.split(run.results[0].message!.split("\n")[0]).length - 1).toBe(1);
    expect(text).toMatch(/maskedGae\s+not loaded/);
  });
});

describe("where a wrong result goes wrong", () => {
  it("a scalar loss names the first row whose own term differs", async () => {
    // Value clipping with the min instead of the max (the optimistic, not the pessimistic, term).
    const dir = workspace(`
export function clippedValueLoss(values: tf.Tensor2D, oldValues: tf.Tensor2D, returns: tf.Tensor2D, mask: tf.Tensor2D, c: number) {
  return tf.tidy(() => {
    const clipped = tf.add(oldValues, tf.clipByValue(tf.sub(values, oldValues), -c, c));
    const term = tf.minimum(tf.square(tf.sub(values, returns)), tf.square(tf.sub(clipped, returns)));
    return tf.mul(0.5, tf.div(tf.sum(tf.mul(term, mask)), tf.maximum(tf.sum(mask), 1)));
  });
}`);
    const run = await grade(dir, "lesson-23", ["clippedValueLoss"]);
    const worked = run.results.find((x) => x.case.startsWith("worked example"))!;
    expect(worked.status).toBe("failed");
    expect(worked.details?.join("\n")).toMatch(/where: with only row \d kept, your result [-\d.e]+, expected [-\d.e]+ \(the first row that differs\)/);
  });

  it("a several-output function reports every differing output, upstream first", async () => {
    // Both outputs wrong: advantages unnormalised and returns missing V.
    const dir = workspace(`
export function maskedGae(r: tf.Tensor2D, v: tf.Tensor2D) {
  return { advantages: tf.mul(r, 2), returns: tf.mul(r, 3) };
}`);
    const run = await grade(dir, "lesson-23", ["maskedGae"]);
    const worked = run.results.find((x) => x.case.startsWith("worked example"))!;
    expect(worked.message).toMatch(/^`advantages` differs/);
    expect(worked.details?.some((d) => /^also: `returns` differs/.test(d))).toBe(true);
  });
});

describe("the type check", () => {
  it("reports a type error as a warning with file:line, cached for the next grade", async () => {
    const { typeCheck } = await import("../grader/typecheck.js");
    const dir = workspace(`const n: number = "three";\nexport function referenceKlPenalty() { return tf.scalar(n); }`);
    const file = join(dir, "lesson-23", "ppo.ts");
    const first = await typeCheck([file], new Promise(() => {}));
    expect(first).toEqual({ state: "done", warnings: [{ location: `${relative(ROOT, file)}:2:7`, message: "Type 'string' is not assignable to type 'number'." }] });
    const t0 = Date.now();
    expect(await typeCheck([file], new Promise(() => {}))).toEqual(first);
    expect(Date.now() - t0).toBeLessThan(200);
  });
});

describe("the command line", () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", ...env } });

  it("a mistyped function name lists the lesson's functions and suggests the nearest", () => {
    const r = cli(["lesson-23", "maskedgae"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no function named "maskedgae"\. Did you mean maskedGae\? Its functions: responseLogpPositions, maskedGae/);
  });

  it("flags npm swallowed are recovered or explained", () => {
    const verbose = cli(["lesson-23", "--solutions"], { npm_config_loglevel: "verbose" });
    expect(verbose.status).toBe(0);
    const timeout = cli(["lesson-23", "30"], { npm_config_timeout: "true", npm_lifecycle_event: "grade" });
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toMatch(/npm took --timeout for itself.*Write: npm run grade -- lesson-23 --timeout 30/);
  });

  it("refuses a timeout a timer cannot hold and a backend that does not exist, before grading", () => {
    for (const t of ["1e9", "Infinity", "0"]) expect(cli(["lesson-23", "--solutions", "--timeout", t]).status).toBe(2);
    const bogus = cli([], { COURSE_BACKEND: "bogus" });
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toMatch(/COURSE_BACKEND=bogus is not a backend/);
    expect(bogus.stderr).not.toMatch(/grading lesson/);
  });
});
