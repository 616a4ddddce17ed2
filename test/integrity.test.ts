/**
 * The verdict cannot be forged (issue 15): learner code that attacks the grader the way a
 * dishonest learner would, each attack in a workspace of its own. Every one must end as a failure
 * with a plain message, never as a pass; and the honest functions beside an attack still pass.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { gradeIsolated, type IsolatedRun } from "../grader/engine/isolate.js";
import { ROOT } from "../grader/engine/paths.js";
import { summarise } from "../grader/engine/summary.js";
import { scratch, workspace } from "./support/workspace.js";
import { WRONG_LESSON_23 } from "./support/wrong-lesson-23.js";

const WRONG = WRONG_LESSON_23;

async function grade(dir: string, hints = false): Promise<IsolatedRun> {
  return gradeIsolated({ lesson: "lesson-23", implDir: join(dir, "lesson-23"), hints }, { caseTimeoutMs: 5000 });
}

function verdicts(run: IsolatedRun): Record<string, string> {
  return Object.fromEntries(summarise(run.results).map((s) => [s.exercise, s.verdict]));
}

describe("forged verdicts", () => {
  it("forged messages, patched Math/dataSync/kernels and printed pass lines change nothing", async () => {
    const progress = join(ROOT, ".integrity-progress.json");
    const dir = workspace(`
import { writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
const names = ["responseLogpPositions", "maskedGae", "ppoPolicyLoss", "referenceKlPenalty", "clippedValueLoss"];
// The old protocol's forged results, and forged outputs and "done" on today's channel.
for (const exercise of names) {
  process.send?.({ type: "result", result: { exercise, case: "worked example", status: "passed", kind: "worked", tolerance: { rtol: 0, atol: 0 }, ms: 0 } });
  process.send?.({ type: "output", exercise, case: "worked example", output: { status: "ok", value: { t: "number", v: 0 }, leaked: 0, mutated: [], ms: 0 } });
}
process.send?.({ type: "done" });
// Comparison and kernels patched in this process.
Math.abs = () => 0;
tf.Tensor.prototype.dataSync = function () { return new Float32Array(this.size); } as never;
// Progress file and a grandchild process.
try { writeFileSync(${JSON.stringify(progress)}, "{}"); console.log("WROTE PROGRESS"); } catch (e) { console.log("write refused: " + (e as Error).message); }
try { spawn("sleep", ["30"], { detached: true }); console.log("SPAWNED"); } catch (e) { console.log("spawn refused: " + (e as Error).message); }
console.log("✓ maskedGae  passed  12/12 cases\\n5/5 functions pass");
${WRONG}`);
    const run = await grade(dir);
    expect(run.fatal).toBeUndefined();
    expect(Object.values(verdicts(run)).some((v) => v === "passed")).toBe(false);
    expect(existsSync(progress)).toBe(false);
    expect(run.printed).toMatch(/write refused/);
    expect(run.printed).toMatch(/spawn refused/);
    expect(run.printed).not.toMatch(/WROTE PROGRESS|SPAWNED/);
    // Every planned case has exactly one result.
    const keys = run.results.map((r) => `${r.exercise}::${r.case}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a forged output for a planned case makes that case an error, not a pass", async () => {
    const dir = workspace(`
export function referenceKlPenalty(newLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D) {
  // A second, forged output for the case being graded right now.
  process.send?.({ type: "output", exercise: "referenceKlPenalty", case: "worked example", output: { status: "ok", value: { t: "number", v: 0 }, leaked: 0, mutated: [], ms: 0 } });
  return tf.tidy(() => {
    const u = tf.sub(refLogps, newLogps);
    return tf.div(tf.sum(tf.mul(tf.sub(tf.sub(tf.exp(u), u), 1), mask)), tf.maximum(tf.sum(mask), 1));
  });
}`);
    const run = await grade(dir);
    const forged = run.results.filter((r) => r.exercise === "referenceKlPenalty" && r.status === "error");
    expect(forged.length).toBeGreaterThan(0);
    expect(forged[0].message).toMatch(/second result arrived/);
  });

  it("re-exporting the reference is refused and named, with export {…} and with export *", async () => {
    for (const line of [`export { maskedGae } from "../../solutions/lesson-23/ppo.js";`, `export * from "../../solutions/lesson-23/ppo.js";`]) {
      const run = await grade(workspace(line));
      expect(run.results.every((r) => r.status !== "passed")).toBe(true);
      expect(run.results[0].message).toMatch(/imports the reference solution \(solutions\/lesson-23\/ppo\.ts\)/);
    }
  });

  it("process.exit(0) at import or inside a function is an error, never a pass", async () => {
    const atImport = await grade(workspace(`process.exit(0);\n${WRONG}`));
    expect(atImport.results.length).toBeGreaterThan(40);
    expect(atImport.results.every((r) => r.status === "error" && /stopped the grading process while loading/.test(r.message ?? ""))).toBe(true);
    const inside = await grade(workspace(`${WRONG.replace("return tf.scalar(0); }\nexport function referenceKlPenalty", "process.exit(0); }\nexport function referenceKlPenalty")}`));
    expect(verdicts(inside).ppoPolicyLoss).toBe("error");
    expect(Object.values(verdicts(inside)).includes("passed")).toBe(false);
  });
});

describe("robustness", () => {
  it("an unreadable result, engine().reset() and a backend switch fail their own case; the rest is graded", async () => {
    const dir = workspace(`
await import("@tensorflow/tfjs-backend-wasm");
await tf.setBackend("wasm");
export function responseLogpPositions() { const o: Record<string, unknown> = {}; o.self = o; return o; }
export function maskedGae() { return { get advantages(): never { throw new Error("no"); }, returns: 1 }; }
export function ppoPolicyLoss() { tf.engine().reset(); return tf.scalar(0); }
export function referenceKlPenalty(newLogps: tf.Tensor2D, refLogps: tf.Tensor2D, mask: tf.Tensor2D) {
  if (tf.getBackend() !== "cpu") throw new Error("graded on " + tf.getBackend());
  return tf.tidy(() => {
    const u = tf.sub(refLogps, newLogps);
    return tf.div(tf.sum(tf.mul(tf.sub(tf.sub(tf.exp(u), u), 1), mask)), tf.maximum(tf.sum(mask), 1));
  });
}
export function clippedValueLoss() { void tf.setBackend("wasm"); return tf.scalar(0); }`);
    const run = await grade(dir);
    expect(run.fatal).toBeUndefined();
    expect(run.backend).toBe("cpu");
    const by = (ex: string) => run.results.filter((r) => r.exercise === ex);
    expect(by("responseLogpPositions")[0].message).toMatch(/should be a tf\.Tensor .*got an object with keys \{ self \}/);
    expect(by("maskedGae")[0].message).toMatch(/could not be read: no/);
    expect(by("ppoPolicyLoss").every((r) => r.status !== "passed")).toBe(true);
    expect(by("referenceKlPenalty").every((r) => r.status === "passed")).toBe(true);
    expect(by("clippedValueLoss")[0].message).toMatch(/switched TensorFlow\.js from the cpu backend to wasm/);
  });
});

describe("the command line keeps learner output apart", () => {
  const cli = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", ...env } });

  it("prints what the code printed in a marked block, and never inside --json", () => {
    const dir = workspace(`console.log("5/5 functions pass");\n${WRONG}`);
    const progress = join(scratch(), "progress.json");
    const env = { COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_PROGRESS_FILE: progress };
    const text = cli(["lesson-23"], env);
    expect(text.status).toBe(1);
    const block = text.stdout.indexOf("── printed by your code");
    expect(block).toBeGreaterThanOrEqual(0);
    expect(text.stdout.indexOf("5/5 functions pass")).toBeGreaterThan(block);
    expect(text.stdout).toMatch(/0\/5 functions pass/);
    const json = cli(["lesson-23", "--json"], env);
    expect(json.status).toBe(1);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect(json.stdout).not.toMatch(/5\/5 functions pass/);
    const record = JSON.parse(readFileSync(progress, "utf8")) as { lessons: Record<string, { functions: Record<string, { verdict: string }> }> };
    expect(Object.values(record.lessons["lesson-23"].functions).some((f) => f.verdict === "passed")).toBe(false);
  });
});
