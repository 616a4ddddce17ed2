/**
 * A classroom, end to end (issue 24): a class of synthetic learners for lessons 3 and 20
 * (tools/gradebook/synthetic-class.ts: correct, partly wrong, stubs, a syntax error, a hang, a
 * refused import, a lookup-table cheat, a copy of a classmate, a missing file beside its near-miss,
 * late, a git clone, a zip) graded with an assignment and a secret into exactly the expected rows
 * and totals; a rerun with nothing changed grades nothing again; one changed file is graded again
 * alone. The pieces are tested on their own too: the zip reader's refusals, the secret's place,
 * the hidden variants.
 */
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { osSandbox } from "../grader/engine/sandbox.js";
import { HIDDEN_PREFIX, distinctHiddenCases, withHiddenCases } from "../grader/engine/hidden.js";
import { loadGrader } from "../grader/engine/load.js";
import { hashInputs } from "../grader/engine/outputs.js";
import { initBackend } from "../lib/backend.js";
import { buildClass, checkClass, CLASS_LESSONS, treeDigest, writeZip, type Expected, type GradedClass } from "../tools/gradebook/synthetic-class.js";
import { unzipInto } from "../tools/gradebook/zip.js";
import { loadSecret } from "../tools/gradebook/secret.js";
import { courseRelative } from "../tools/gradebook/pages.js";

const TRUSTED = osSandbox().available ? [] : ["--trusted"];
/**
 * The per-case limit of every run here (the same in each, since it is part of the cache key). It is
 * generous because CI runs this beside the whole suite on 2 cores: at 3 s a correct learner's cheap
 * case once timed out there. Only the hanging learner waits it out, once.
 */
const CASE_LIMIT_S = "20";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/gradebook/cli.ts", ...args, ...TRUSTED], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}

interface Row {
  learner: string;
  lesson: string;
  function: string;
  status: string;
  kind: string;
  location: string;
  hidden: string;
  passed: string;
  total: string;
  points: string;
  score: string;
  reason: string;
}

const base = mkdtempSync(join(tmpdir(), "classroom-test-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the pieces", () => {
  it("the zip reader writes files only inside its folder: no zip-slip, no links, and says what it left out", async () => {
    const zip = join(base, "evil.zip");
    writeZip(zip, [
      { name: "a/ok.ts", data: "export const x = 1;\n" },
      { name: "../escape.txt", data: "out" },
      { name: "/abs.txt", data: "abs" },
      { name: "a\\..\\win.txt", data: "win" },
      { name: "a/link", data: "/etc/passwd", mode: 0o120777 },
    ]);
    const dest = join(base, "unzipped");
    mkdirSync(dest);
    const u = await unzipInto(zip, dest);
    expect(u.files).toEqual(["a/ok.ts"]);
    expect(u.links).toEqual(["a/link"]);
    expect(u.refused.map((r) => r.split(" ")[0])).toEqual(["../escape.txt", "/abs.txt", "a\\..\\win.txt"]);
    expect(readdirSync(dest)).toEqual(["a"]);
    expect(readdirSync(join(dest, "a"))).toEqual(["ok.ts"]);
    expect(readFileSync(join(dest, "a", "ok.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(existsSync(join(base, "escape.txt"))).toBe(false);
    writeFileSync(join(base, "not.zip"), "not a zip at all");
    await expect(unzipInto(join(base, "not.zip"), dest)).rejects.toThrow(/not a zip archive/);
  });

  it("the secret is made on first use outside the course, kept, and refused inside it", () => {
    const file = join(base, "secret-dir", "secret");
    const a = loadSecret(file, [{ dir: ROOT, what: "the course" }]);
    expect(a.created).toBe(true);
    const b = loadSecret(file, [{ dir: ROOT, what: "the course" }]);
    expect(b.created).toBe(false);
    expect([b.hash, b.salt("lesson-3")]).toEqual([a.hash, a.salt("lesson-3")]);
    expect(a.salt("lesson-3")).not.toBe(a.salt("lesson-20"));
    expect(() => loadSecret(join(ROOT, "grader", "secret"), [{ dir: ROOT, what: "the course" }])).toThrow(/lies inside the course/);
    expect(existsSync(join(ROOT, "grader", "secret"))).toBe(false);
  });

  it("hidden variants: only random cases, named 'hidden: …', with other inputs than their public case", async () => {
    await initBackend("cpu");
    const grader = await loadGrader("lesson-3");
    const hidden = distinctHiddenCases(withHiddenCases(grader, 12345));
    for (const ex of hidden.exercises) {
      const pub = grader.exercises.find((e) => e.name === ex.name)!;
      const variants = ex.cases.filter((c) => c.name.startsWith(HIDDEN_PREFIX));
      expect(variants.length).toBeGreaterThan(0);
      expect(variants.length).toBeLessThanOrEqual(pub.cases.filter((c) => c.kind === "random").length);
      for (const v of variants.slice(0, 3)) {
        const original = pub.cases.find((c) => c.name === v.name.slice(HIDDEN_PREFIX.length))!;
        expect(original.kind).toBe("random");
        expect(hashInputs(v.inputs())).not.toBe(hashInputs(original.inputs()));
        // The same salt, the same hidden inputs (the reference and the learner's process agree).
        expect(hashInputs(v.inputs())).toBe(hashInputs(withHiddenCases(grader, 12345).exercises.find((e) => e.name === ex.name)!.cases.find((c) => c.name === v.name)!.inputs()));
      }
    }
    expect(withHiddenCases(grader, undefined)).toBe(grader);
  });

  it("feedback paths are course-relative: no course root, staged copy or bundle path is left", () => {
    const text = `at ${ROOT}/solutions/lesson-23/ppo.ts:3 and ${ROOT}/.grader-build/gradebook-1-2/exercises/lesson-3/sampling.ts:4, ../../.grader-build/123-4-5/entry.mjs`;
    const out = courseRelative(text);
    expect(out).not.toContain(ROOT);
    expect(out).not.toContain(".grader-build");
    expect(out).toContain("exercises/lesson-3/sampling.ts:4");
  });
});

describe("a class graded with an assignment and a secret", () => {
  const subs = join(base, "class");
  const out = join(base, "out");
  const secret = join(base, "instructor", "secret");
  const assignment = join(base, "a1.json");
  const deadline = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000);
  let expected: Record<string, Expected>;
  let first: Awaited<ReturnType<typeof run>>;
  let rows: Row[];
  let json: { totals: Array<{ learner: string; points: number; raw: number; score: number; lateFactor: number; daysLate: number; commit?: string; submittedAt?: string; source?: string }>; cached: number; identical: Array<{ lesson: string; learners: string[] }> };
  let before: string;
  let gitHead: string;
  const rowOf = (learner: string, key: string) => rows.find((r) => `${r.lesson}/${r.function}` === key && r.learner === learner)!;

  beforeAll(async () => {
    expected = await buildClass(subs, deadline);
    writeFileSync(assignment, JSON.stringify({ name: "a1", lessons: [...CLASS_LESSONS], points: { "lesson-3": 10, "lesson-20": 10 }, deadline: deadline.toISOString(), late: { penaltyPerDay: 0.1, maxDaysLate: 3 } }));
    before = treeDigest(subs);
    gitHead = execFileSync("git", ["-C", join(subs, "git-clone"), "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    first = await run([subs, "--assignment", assignment, "--secret", secret, "--out", out, "--timeout", CASE_LIMIT_S]);
    rows = parse(readFileSync(join(out, "gradebook.csv"), "utf8"), { columns: true }) as Row[];
    json = JSON.parse(readFileSync(join(out, "gradebook.json"), "utf8"));
  }, 420_000);

  it("grades every learner into one row a function, each of the kind expected, and exits 0", () => {
    expect(first.code, first.stderr).toBe(0);
    expect(new Set(rows.map((r) => r.learner))).toEqual(new Set(Object.keys(expected)));
    expect(rows).toHaveLength(Object.keys(expected).length * 3);
    expect(first.stderr).toMatch(/not a learner folder, skipped: zz-link-to-course/);
    const got = Object.fromEntries(Object.keys(expected).map((l) => [l, Object.fromEntries(rows.filter((r) => r.learner === l).map((r) => [`${r.lesson}/${r.function}`, r.kind]))]));
    expect(got).toEqual(Object.fromEntries(Object.entries(expected).map(([l, e]) => [l, e.kinds])));
  });

  it("scores each function by the share of its cases passed, public and hidden", () => {
    for (const [learner, e] of Object.entries(expected)) {
      for (const [key, want] of Object.entries(e.score)) {
        const r = rowOf(learner, key);
        const [score, points] = [Number(r.score), Number(r.points)];
        expect(points, `${learner} ${key}`).toBe(key.startsWith("lesson-3/") ? 5 : 10);
        if (want === "full") expect(score, `${learner} ${key}`).toBe(points);
        else if (want === "zero") expect(score, `${learner} ${key}`).toBe(0);
        else expect(score > 0 && score < points, `${learner} ${key}: ${score} of ${points}`).toBe(true);
        expect(score).toBeCloseTo((points * Number(r.passed)) / Number(r.total), 2);
      }
      for (const [key, re] of Object.entries(e.reason ?? {})) expect(rowOf(learner, key).reason, `${learner} ${key}`).toMatch(re);
    }
    expect(rowOf("syntax", "lesson-3/filteredProbabilities").location).toMatch(/^exercises\/lesson-3\/sampling\.ts:\d+$/);
  });

  it("the lookup-table cheat passes public cases only; the reference passes the hidden ones too", () => {
    for (const fn of ["lesson-3/filteredProbabilities", "lesson-3/sampleNextToken"]) {
      const cheat = rowOf("cheat", fn);
      const [hp, ht] = cheat.hidden.split("/").map(Number);
      expect(ht).toBeGreaterThan(0);
      expect(hp).toBe(0);
      // Every public case it had an answer for passed: at most the hidden ones and a too-large one fail.
      expect(Number(cheat.total) - Number(cheat.passed)).toBeLessThanOrEqual(ht + 1);
      const correct = rowOf("correct", fn);
      expect(correct.hidden).toBe(`${ht}/${ht}`);
    }
  });

  it("totals: per learner, the late rule applied from the submission's time; git at its last commit before the deadline", () => {
    for (const t of json.totals) {
      expect(t.points).toBe(20);
      expect(t.lateFactor, t.learner).toBe(expected[t.learner].lateFactor);
      expect(t.score).toBeCloseTo(t.raw * t.lateFactor, 2);
      expect(t.source, t.learner).toBe(expected[t.learner].source);
    }
    const late = json.totals.find((t) => t.learner === "late")!;
    expect([late.raw, late.daysLate, late.score]).toEqual([20, 2, 16]);
    const git = json.totals.find((t) => t.learner === "git-clone")!;
    const firstCommit = execFileSync("git", ["-C", join(subs, "git-clone"), "rev-list", "--max-parents=0", "HEAD"], { encoding: "utf8" }).trim();
    expect(git.commit).toBe(firstCommit);
    expect(new Date(git.submittedAt!).getTime()).toBe(deadline.getTime() - 86_400_000);
    expect(json.identical.find((g) => g.lesson === "lesson-3")?.learners).toEqual(expect.arrayContaining(["copy-of-correct", "correct"]));
    // The classroom bench's check of a whole class (30 learners) agrees, and is not blind.
    const graded = json as unknown as GradedClass;
    expect(checkClass(graded, expected)).toEqual([]);
    const wrongKind = { ...graded, rows: graded.rows.map((r) => (r.learner === "hang" && r.function === "sampleNextToken" ? { ...r, kind: "passed" } : r)) };
    const notLate = { ...graded, totals: graded.totals.map((t) => (t.learner === "late" ? { ...t, lateFactor: 1, score: t.raw } : t)) };
    expect(checkClass(wrongKind, expected)).toEqual(["hang lesson-3/sampleNextToken: passed, expected timeout"]);
    expect(checkClass(notLate, expected)).toEqual(["late: late factor 1, expected 0.8"]);
  });

  it("writes summary.csv in Canvas's import layout, the HTML gradebook and one return folder a learner", () => {
    const summary = parse(readFileSync(join(out, "summary.csv"), "utf8"), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(summary[0])).toEqual(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "a1"]);
    expect(summary[0]).toMatchObject({ Student: "Points Possible", a1: "20" });
    expect(summary.slice(1).map((r) => [r.Student, Number(r.a1)])).toEqual(json.totals.map((t) => [t.learner, t.score]));
    const html = readFileSync(join(out, "gradebook.html"), "utf8");
    for (const l of Object.keys(expected)) {
      expect(html).toContain(`href="return/${l}/feedback.html#lesson-3"`);
      for (const f of ["feedback.md", "feedback.html"]) {
        const text = readFileSync(join(out, "return", l, f), "utf8");
        expect(text, `${l}/${f}`).not.toContain(ROOT);
        expect(text, `${l}/${f}`).not.toContain(".grader-build");
        expect(text, `${l}/${f}`).not.toContain(tmpdir() + "/");
      }
    }
    expect(readFileSync(join(out, "return", "renamed", "feedback.md"), "utf8")).toMatch(/Sampling_final\.ts/);
    expect(readFileSync(join(out, "return", "cheat", "feedback.html"), "utf8")).toMatch(/<h2 id="lesson-3">/);
  });

  it("changes no submission (the git clone keeps its HEAD), writes nothing outside its folders, and keeps the secret outside the course", () => {
    expect(treeDigest(subs)).toBe(before);
    expect(execFileSync("git", ["-C", join(subs, "git-clone"), "rev-parse", "HEAD"], { encoding: "utf8" }).trim()).toBe(gitHead);
    expect(existsSync(join(base, "escaped.txt"))).toBe(false);
    expect(existsSync(secret)).toBe(true);
    expect(readdirSync(out).some((f) => f.includes("secret"))).toBe(false);
  });

  it("a rerun with nothing changed grades nothing again and writes the same gradebook; a changed file is graded again alone", async () => {
    const csv = readFileSync(join(out, "gradebook.csv"), "utf8");
    // The rerun also names Canvas's assignment and fills the identity columns from a roster (neither changes a grade).
    const roster = join(base, "roster.csv");
    writeFileSync(roster, "learner,Student,ID,SIS User ID,SIS Login ID,Section\ncorrect,\"Doe, Jane\",101,S101,jdoe,A\n");
    const again = await run([subs, "--assignment", assignment, "--secret", secret, "--out", out, "--timeout", CASE_LIMIT_S, "--roster", roster, "--canvas-column", "a1 (12345)"]);
    expect(again.code, again.stderr).toBe(0);
    const summary = parse(readFileSync(join(out, "summary.csv"), "utf8"), { columns: true }) as Array<Record<string, string>>;
    expect(summary.find((r) => r.ID === "101")).toEqual({ Student: "Doe, Jane", ID: "101", "SIS User ID": "S101", "SIS Login ID": "jdoe", Section: "A", "a1 (12345)": "20" });
    const lessons = Object.keys(expected).length * CLASS_LESSONS.length;
    expect(JSON.parse(readFileSync(join(out, "gradebook.json"), "utf8")).cached).toBe(lessons);
    expect(readFileSync(join(out, "gradebook.csv"), "utf8")).toBe(csv);
    console.log(`classroom: first run ${(first.ms / 1000).toFixed(1)} s, rerun with nothing changed ${(again.ms / 1000).toFixed(1)} s`);
    // The stubs learner finishes lesson 20: only that lesson is graded again.
    writeFileSync(join(subs, "stubs", "exercises", "lesson-20", "distillation.ts"), readFileSync(join(ROOT, "solutions", "lesson-20", "distillation.ts")));
    const changed = await run([subs, "--assignment", assignment, "--secret", secret, "--out", out, "--timeout", CASE_LIMIT_S]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "gradebook.json"), "utf8")).cached).toBe(lessons - 1);
    const now = parse(readFileSync(join(out, "gradebook.csv"), "utf8"), { columns: true }) as Row[];
    expect(now.find((r) => r.learner === "stubs" && r.lesson === "lesson-20")?.kind).toBe("passed");
  }, 240_000);

  it("refuses a secret inside the course or the submissions, and --lessons with --assignment, with exit 2 and one line", async () => {
    for (const [args, re] of [
      [["--secret", join(ROOT, "secret.txt")], /lies inside the course/],
      [["--secret", join(subs, "secret.txt")], /lies inside the submissions folder/],
      [["--lessons", "lesson-3"], /--lessons and --assignment both choose the lessons/],
    ] as const) {
      const r = await run([subs, "--assignment", assignment, "--out", join(base, "refused-out"), ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(ROOT, "secret.txt"))).toBe(false);
  }, 60_000);
});
