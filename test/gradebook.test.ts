/**
 * `npm run gradebook` (issue 14): a folder of synthetic learners for lesson 23, generated here (the
 * correct one is the reference copied in as the learner's file), graded into the expected CSV rows.
 * Each kind of bad code, every attack on the verdict and each layout of a submission ends as the
 * row it is, with its reason; the learners' files are never changed; no staging folder is left.
 * The control-characters helper of the feedback is checked here; stopping, killing and the OS
 * sandbox are in gradebook-sandbox.test.ts.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { osSandbox } from "../grader/engine/sandbox.js";
import { safeText } from "../tools/gradebook/feedback.js";
import { generateStub } from "../lib/stubs.js";

const REFERENCE = readFileSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), "utf8");
const FUNCTIONS = ["responseLogpPositions", "maskedGae", "ppoPolicyLoss", "referenceKlPenalty", "clippedValueLoss"];
const TF = `import * as tf from "../../lib/tf.js";\n`;

/** Wrong but well-formed versions of every lesson-23 function (zeros of the right shape). */
const WRONG = `${TF}
export function responseLogpPositions(p: tf.Tensor1D, R: number) { return tf.zeros([p.shape[0], R], "int32"); }
export function maskedGae(r: tf.Tensor2D) { return { advantages: tf.zerosLike(r), returns: tf.zerosLike(r) }; }
export function ppoPolicyLoss() { return tf.scalar(0); }
export function referenceKlPenalty() { return tf.scalar(0); }
export function clippedValueLoss() { return tf.scalar(0); }
`;

/** The reference with one function's body replaced: `body` runs first. */
function withBody(fn: string, body: string): string {
  const re = new RegExp(`(export function ${fn}\\([^]*?\\{\\n)`);
  expect(re.test(REFERENCE)).toBe(true);
  return REFERENCE.replace(re, `$1  ${body}\n`);
}

const KL_K3 = "maskedMean(tf.sub(tf.sub(tf.exp(u), u), 1), mask)";

/** learner → relative path of the lesson file (the layout) and its text; undefined text: no file. */
const LEARNERS: Record<string, { path: string; text?: string; extra?: { path: string; text: string } }> = {
  correct: { path: "exercises/lesson-23/ppo.ts", text: REFERENCE },
  stub: { path: "lesson-23/ppo.ts", text: generateStub(REFERENCE, "lesson-23", "ppo.ts") },
  syntax: { path: "course-main/exercises/lesson-23/ppo.ts", text: `${REFERENCE}\nconst broken = ;\n` },
  hang: { path: "lesson-23/ppo.ts", text: withBody("maskedGae", "for (;;) {}") },
  "exit-import": { path: "lesson-23/ppo.ts", text: `${WRONG}\nprocess.exit(0);\n` },
  "exit-inside": { path: "exercises/lesson-23/ppo.ts", text: withBody("ppoPolicyLoss", "process.exit(0);") },
  forged: {
    path: "lesson-23/ppo.ts",
    text: `${WRONG}
const ok = { status: "ok", value: { t: "number", v: 0 }, leaked: 0, mutated: [], ms: 0 };
for (const exercise of ${JSON.stringify(FUNCTIONS)}) {
  for (const c of ["worked example", "worked example (γ=1, λ=0.95)", "worked example (ε=0.2)", "worked example (c=0.2)"]) {
    process.send?.({ type: "result", result: { exercise, case: c, status: "passed", kind: "worked", tolerance: { rtol: 0, atol: 0 }, ms: 0 } });
    process.send?.({ type: "output", exercise, case: c, output: ok });
  }
}
process.send?.({ type: "done" });
console.log("  ✓ maskedGae  passed  12/12 cases\\n5/5 functions pass");
`,
  },
  "math-abs": { path: "lesson-23/ppo.ts", text: `${WRONG}\nMath.abs = () => 0;\ntf.Tensor.prototype.dataSync = function () { return new Float32Array(this.size); } as never;\n` },
  renamed: { path: "lesson-23/ppo.ts", text: REFERENCE.replace("export function maskedGae(", "export function maskedGAE(") },
  missing: { path: "exercises/lesson-23/NOTES.md", text: "I did not finish.\n" },
  // Also imports from a sibling folder (an ungraded lesson-1), as a learner's file may.
  k1: {
    path: "lesson-23/ppo.ts",
    text: `import { NOTE } from "../lesson-1/scratch.js";\nconsole.log(NOTE + "\\u001b[2Jpassed,5,5,\\u0007\\u001b[1A\\u001b[2K\\u001b[8m\\u202e\\r");\n${REFERENCE.replace(KL_K3, "maskedMean(tf.neg(u), mask)")}`,
    extra: { path: "lesson-1/scratch.ts", text: `export const NOTE = "trying k1";\n` },
  },
};

interface Row {
  learner: string;
  lesson: string;
  function: string;
  status: string;
  passed: string;
  total: string;
  cases: string;
  mistake: string;
  reason: string;
}

/** A digest of every file under `dir` (path and bytes), to prove grading changed nothing. */
function treeHash(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      h.update(p);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex");
}

/** Where there is no OS sandbox, these tests grade with --trusted (gradebook-sandbox.test.ts tests the refusal). */
const TRUSTED = osSandbox().available ? [] : ["--trusted"];

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; pid: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/gradebook/cli.ts", ...args, ...TRUSTED], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr, pid: child.pid! }));
  });
}

/** The staged copies a gradebook with this pid left in .grader-build/ (or, as older versions named them, in the root). */
function stagedCopiesOf(pid: number): string[] {
  const build = join(ROOT, ".grader-build");
  const mine = existsSync(build) ? readdirSync(build).filter((e) => e.startsWith(`gradebook-${pid}-`)) : [];
  return [...mine, ...readdirSync(ROOT).filter((e) => e.startsWith(".gradebook-"))];
}

const base = mkdtempSync(join(tmpdir(), "gradebook-test-"));
const subs = join(base, "submissions");
const out = join(base, "out");
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("npm run gradebook", () => {
  let result: Awaited<ReturnType<typeof run>>;
  let rows: Row[];
  let before: string;
  const row = (learner: string, fn: string) => rows.find((r) => r.learner === learner && r.function === fn)!;
  const rowsOf = (learner: string) => rows.filter((r) => r.learner === learner);

  beforeAll(async () => {
    for (const [name, { path, text, extra }] of Object.entries(LEARNERS)) {
      for (const f of [{ path, text }, ...(extra ? [extra] : [])]) {
        const file = join(subs, name, f.path);
        mkdirSync(join(file, ".."), { recursive: true });
        if (f.text !== undefined) writeFileSync(file, f.text);
      }
    }
    mkdirSync(join(subs, ".hidden"));
    writeFileSync(join(subs, "README.txt"), "not a learner");
    before = treeHash(subs);
    // 10 s a case: generous, since CI runs this beside the whole suite on 2 cores (only the hang waits it out).
    result = await run([subs, "--out", out, "--feedback", "--timeout", "10"]);
    rows = parse(readFileSync(join(out, "gradebook.csv"), "utf8"), { columns: true }) as Row[];
  }, 90_000);

  it("grades every learner folder (and nothing else) into one row a function, and exits 0", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(new Set(rows.map((r) => r.learner))).toEqual(new Set(Object.keys(LEARNERS)));
    expect(rows).toHaveLength(Object.keys(LEARNERS).length * FUNCTIONS.length);
    for (const r of rows) expect(r.lesson).toBe("lesson-23");
    expect(result.stderr).toMatch(/\[11\/11\] /);
    expect(result.stderr).toMatch(/not a learner folder, skipped: README\.txt/);
  });

  it("the reference as the learner's code passes every case; a stub is not implemented", () => {
    for (const r of rowsOf("correct")) {
      expect(r.status).toBe("passed");
      expect(r.passed).toBe(r.total);
      expect(r.reason).toBe("");
    }
    for (const r of rowsOf("stub")) expect([r.status, r.passed, r.reason]).toEqual(["not-implemented", "0", "still throws NotImplementedError (not started)"]);
  });

  it("a syntax error, a renamed export and a missing file are graded as what they are", () => {
    for (const r of rowsOf("syntax")) {
      expect(r.status).toBe("error");
      expect(r.reason).toMatch(/^course-main\/exercises\/lesson-23\/ppo\.ts could not be loaded: course-main\/exercises\/lesson-23\/ppo\.ts:\d+:\d+: .*const broken = ;/);
    }
    expect(row("renamed", "maskedGae")).toMatchObject({ status: "error", passed: "0", reason: expect.stringMatching(/^ppo\.ts does not export a function named maskedGae \((\d+) of \1 cases fail\)$/) });
    expect(rowsOf("renamed").filter((r) => r.status === "passed").map((r) => r.function)).toEqual(FUNCTIONS.filter((f) => f !== "maskedGae"));
    for (const r of rowsOf("missing")) {
      expect(r.status).toBe("error");
      expect(r.reason).toBe(`exercises/lesson-23/ppo.ts is missing from the submission (${r.total} of ${r.total} cases fail)`);
    }
  });

  it("a hang times out its function only; process.exit(0) is an error, never a pass", () => {
    expect(row("hang", "maskedGae")).toMatchObject({ status: "timeout", passed: "0" });
    expect(row("hang", "maskedGae").reason).toMatch(/timed out after 10 s/);
    expect(rowsOf("hang").filter((r) => r.status === "passed")).toHaveLength(4);
    for (const r of rowsOf("exit-import")) {
      expect(r.status).toBe("error");
      expect(r.reason).toMatch(/stopped the grading process while loading \(exited \(code 0\)/);
    }
    expect(row("exit-inside", "ppoPolicyLoss").status).toBe("error");
    expect(row("exit-inside", "ppoPolicyLoss").reason).toMatch(/exited \(code 0\) during this case/);
    expect(rowsOf("exit-inside").filter((r) => r.status === "passed")).toHaveLength(4);
  });

  it("forged messages, printed pass lines and a patched Math.abs fail with the real reason", () => {
    for (const learner of ["forged", "math-abs"]) {
      for (const r of rowsOf(learner)) {
        expect(["failed", "error"]).toContain(r.status);
        expect(Number(r.passed)).toBeLessThan(Number(r.total));
        expect(r.reason).not.toBe("");
      }
    }
    // The forged "done" ends the run: a forged output is judged like a computed one, the rest never came.
    for (const r of rowsOf("forged")) expect(r.reason).toMatch(/no result came back for this case|the result should be|a second result arrived/);
    expect(row("math-abs", "maskedGae")).toMatchObject({ status: "failed", passed: "0" });
    expect(row("math-abs", "ppoPolicyLoss").reason).toMatch(/^worked example .* — .*got 0, expected -?\d/);
  });

  it("names a known mistake, and keeps the learner's printing out of the CSV", () => {
    expect(row("k1", "referenceKlPenalty").status).toBe("failed");
    expect(row("k1", "referenceKlPenalty").mistake).toMatch(/plain log-ratio \(k1\)/);
    expect(rowsOf("k1").filter((r) => r.status === "passed")).toHaveLength(4);
    const csv = readFileSync(join(out, "gradebook.csv"), "utf8");
    expect(csv).not.toMatch(/\u001b|\u0007|5\/5 functions pass/);
    const json = JSON.parse(readFileSync(join(out, "gradebook.json"), "utf8")) as { learners: Array<{ name: string; lessons: Array<{ printed: string }> }> };
    expect(json.learners.find((l) => l.name === "forged")!.lessons[0].printed).toMatch(/5\/5 functions pass/);
    expect(result.stdout).toMatch(/pass rate per function/);
    expect(result.stdout).toMatch(/1 learner +lesson-23 referenceKlPenalty: the plain log-ratio \(k1\)/);
  });

  it("writes one feedback file a learner, as `npm run grade` words it, printing kept apart", () => {
    const dir = join(out, "feedback");
    expect(readdirSync(dir).sort()).toEqual(Object.keys(LEARNERS).map((l) => `${l}.md`).sort());
    const hang = readFileSync(join(dir, "hang.md"), "utf8");
    expect(hang).toMatch(/⏱ maskedGae +timed out +0\/\d+ cases/);
    expect(hang).toMatch(/4\/5 functions pass/);
    const forged = readFileSync(join(dir, "forged.md"), "utf8");
    const block = forged.indexOf("── printed by your code");
    expect(block).toBeGreaterThan(forged.indexOf("0/5 functions pass."));
    expect(forged.indexOf("5/5 functions pass")).toBeGreaterThan(block);
  });

  it("shows the learner's control characters in the feedback as visible escapes, never as they are", () => {
    const k1 = readFileSync(join(out, "feedback", "k1.md"), "utf8");
    expect(k1).toMatch(/trying k1/);
    // Erase screen, bell, cursor up, erase line, hidden text, right-to-left override, carriage return: none raw.
    expect(k1).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(k1).toContain("\\x1b[2Jpassed,5,5,\\x07\\x1b[1A\\x1b[2K\\x1b[8m");
    for (const f of readdirSync(join(out, "feedback"))) expect(readFileSync(join(out, "feedback", f), "utf8")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it("changes no learner file and leaves no staging folder behind", () => {
    expect(treeHash(subs)).toBe(before);
    expect(stagedCopiesOf(result.pid)).toEqual([]);
    expect(existsSync(join(out, "gradebook.partial.csv"))).toBe(false);
  });
});

describe("the gradebook's limits and usage errors", () => {
  it("stops a lesson at the wall limit, as a timeout row with the reason", async () => {
    const folder = join(base, "wall");
    mkdirSync(join(folder, "slow", "lesson-23"), { recursive: true });
    writeFileSync(join(folder, "slow", "lesson-23", "ppo.ts"), withBody("responseLogpPositions", "for (;;) {}"));
    const r = await run([folder, "--out", join(base, "wall-out"), "--timeout", "60", "--wall", "3", "--jobs", "1"]);
    expect(r.code, r.stderr).toBe(0);
    const rows = parse(readFileSync(join(base, "wall-out", "gradebook.csv"), "utf8"), { columns: true }) as Row[];
    expect(rows.map((x) => x.function)).toEqual(FUNCTIONS);
    for (const x of rows) expect([x.status, x.reason]).toEqual(["timeout", "grading lesson-23 took longer than the 3 s wall limit, and was stopped"]);
    expect(stagedCopiesOf(r.pid)).toEqual([]);
    // Nor a learner bundle of a stopped grading (the engine's builds of this run's staged copies).
    const builds = join(ROOT, ".grader-build");
    const entry = (d: string) => ["entry.mjs", "entry.js"].map((f) => join(builds, d, f)).find((f) => existsSync(f));
    const left = existsSync(builds) ? readdirSync(builds).filter((d) => entry(d) && readFileSync(entry(d)!, "utf8").includes(`/.grader-build/gradebook-${r.pid}-`)) : [];
    expect(left).toEqual([]);
  }, 30_000);

  it("refuses bad input with exit 2 and a message, never a stack trace", async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /which folder\?/],
      [[join(base, "nope")], /no such folder/],
      [[subs, "--lessons", "lesson-99"], /unknown lesson|no graded exercises/],
      [[subs, "--out", join(subs, "out")], /lies inside/],
      [[subs, "--jobs", "0"], /--jobs needs a whole number/],
      [[subs, "--bogus"], /Unknown option '--bogus'/],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    cases.forEach(([args, message], i) => {
      expect(results[i].code, args.join(" ")).toBe(2);
      expect(results[i].stderr).toMatch(message);
      expect(results[i].stderr).not.toMatch(/\n\s+at /);
    });
    expect(existsSync(join(subs, "out"))).toBe(false);
  });
});

describe("safeText (the feedback's learner text)", () => {
  it("makes control characters visible and keeps newlines and tabs", () => {
    expect(safeText("a\tb\nc")).toBe("a\tb\nc");
    expect(safeText("line\r\nnext")).toBe("line\nnext");
    expect(safeText("\u001b[1A\u001b[2K2/2 functions pass\u0007\r\u009b\u202e")).toBe("\\x1b[1A\\x1b[2K2/2 functions pass\\x07\\x0d\\x9b\\u{202e}");
  });
});
