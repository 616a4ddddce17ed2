/**
 * Releasing by assignment (issue 24): an edition holds only the lessons released, the others'
 * grading says "not released yet"; the next assignment is added into the edition a class works in
 * with every learner file byte-identical; bad input is one line and a non-zero exit; and the
 * edition's text (README, lessons, stubs) names only files it ships and scripts it has.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { readEditionInfo } from "../lib/course/edition.js";
import { buildEdition, extendEdition } from "../tools/release/edition.js";
import { adaptText, editionTextProblems, folderShape } from "../tools/release/text.js";
import { heldBackProblems } from "../tools/release/check.js";

const cli = (args: string[], cwd = ROOT) =>
  spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "tools/release/cli.ts"), ...args], { cwd, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });

describe("the edition's text check", () => {
  it("finds a path and a command the edition lacks, and rewrites them into words", () => {
    const dir = mkdtempSync(join(tmpdir(), "edition-text-"));
    try {
      mkdirSync(join(dir, "lessons"));
      mkdirSync(join(dir, "lib"));
      writeFileSync(join(dir, "lib", "a.ts"), "");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ scripts: { grade: "x" } }));
      const text = [
        "Checked by `test/export.test.ts`; timed by `npm run bench`; see [lesson 9](09-x.md) and `lib/a.ts`.",
        "Round trips (`test/a.test.ts`, `test/b.test.ts`).",
        "MiniMind: `trainer/train_ppo.py:36-48` @ d65ef2c; AReaL: `docs/en/m2po.md:9-33` @ 4aef98d8.",
        "```",
        "npm run grade lesson-3",
        "npm run bench serve",
        "```",
      ].join("\n");
      writeFileSync(join(dir, "lessons", "01-a.md"), text);
      writeFileSync(join(dir, "README.md"), "Run `npm run grade` and read `lib/a.ts`.\n");
      const problems = editionTextProblems(dir);
      expect(problems.map((p) => p.replace(/:.*?: /, ": "))).toEqual([
        "lessons/01-a.md: link 09-x.md: lessons/09-x.md is not in the edition",
        "lessons/01-a.md: `npm run bench`: no such script in package.json",
        "lessons/01-a.md: test/export.test.ts is not in the edition",
        "lessons/01-a.md: test/a.test.ts is not in the edition",
        "lessons/01-a.md: test/b.test.ts is not in the edition",
        "lessons/01-a.md: `npm run bench`: no such script in package.json",
      ]);
      const adapted = adaptText(text, "lessons/01-a.md", folderShape(dir));
      expect(adapted).toContain("Checked by the full course's test suite; timed by the full course's benchmarks; see lesson 9 (not released yet) and `lib/a.ts`.");
      expect(adapted).toContain("Round trips (the full course's test suite).");
      expect(adapted).toContain("npm run grade lesson-3");
      expect(adapted).not.toContain("npm run bench");
      writeFileSync(join(dir, "lessons", "01-a.md"), adapted);
      expect(editionTextProblems(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("bad release input is one line and a non-zero exit", () => {
  const dir = mkdtempSync(join(tmpdir(), "release-bad-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const oneLine = (r: ReturnType<typeof cli>, pattern: RegExp) => {
    expect(r.status).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };
  it("an unknown lesson", () => oneLine(cli(["--out", join(dir, "e1"), "--lessons", "3-40"]), /"35" is not a lesson of the course/));
  it("an assignment file that is not JSON, or names no lessons", () => {
    writeFileSync(join(dir, "bad.json"), "{ lessons: 1-3 ");
    oneLine(cli(["--out", join(dir, "e2"), "--assignment", join(dir, "bad.json")]), /bad\.json: is not JSON/);
    writeFileSync(join(dir, "nolessons.json"), JSON.stringify({ name: "a1" }));
    oneLine(cli(["--out", join(dir, "e2"), "--assignment", join(dir, "nolessons.json")]), /nolessons\.json: lessons: /);
  });
  it("a target folder that is not an edition", () => {
    mkdirSync(join(dir, "plain"));
    writeFileSync(join(dir, "plain", "notes.txt"), "mine\n");
    oneLine(cli(["--into", join(dir, "plain"), "--lessons", "4"]), /is not a student edition/);
    oneLine(cli(["--out", join(dir, "plain"), "--lessons", "4"]), /exists and is not empty/);
    expect(readFileSync(join(dir, "plain", "notes.txt"), "utf8")).toBe("mine\n");
  });
  it("a lesson whose exercises import one the edition does not hold", () => oneLine(cli(["--out", join(dir, "e3"), "--lessons", "11"]), /lesson-11's exercises import lesson-\d+'s .*release lesson-\d+ too/));
});

describe("an edition released assignment by assignment", () => {
  let edition = "";
  const run = (cmd: string[]) => spawnSync(process.execPath, ["--import", "tsx", ...cmd], { cwd: edition, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });

  beforeAll(async () => {
    edition = mkdtempSync(join(tmpdir(), "course-edition-a1-"));
    await buildEdition(edition, { published: [], released: ["lesson-1", "lesson-2", "lesson-3"], assignment: "a1" });
    symlinkSync(join(ROOT, "node_modules"), join(edition, "node_modules"));
  }, 600_000);
  afterAll(() => rmSync(edition, { recursive: true, force: true }));

  it("holds only the released lessons, and says so", () => {
    expect(readdirSync(join(edition, "exercises"))).toEqual(["lesson-3"]);
    expect(readdirSync(join(edition, "grader", "expected"))).toEqual(["lesson-3.json"]);
    expect(readdirSync(join(edition, "stubs"))).toEqual(["lesson-3"]);
    expect(readdirSync(join(edition, "lessons")).filter((f) => f.endsWith(".md"))).toEqual(["01-project-map.md", "02-environment-data-weights.md", "03-inference-end-to-end.md"]);
    expect(existsSync(join(edition, "grader", "lesson-23"))).toBe(false);
    const info = readEditionInfo(edition)!;
    expect(info.released).toEqual(["lesson-1", "lesson-2", "lesson-3"]);
    expect(info.assignments?.map((a) => [a.name, a.lessons])).toEqual([["a1", ["lesson-1", "lesson-2", "lesson-3"]]]);
    const readme = readFileSync(join(edition, "README.md"), "utf8");
    expect(readme).toMatch(/It holds lessons 1-3 of the course's 34/);
    expect(readme).toMatch(/Reference solutions: not included/);
    expect(editionTextProblems(edition)).toEqual([]);
    // --check finds a held-back lesson's file that is there anyway.
    expect(heldBackProblems(edition, info)).toEqual([]);
    writeFileSync(join(edition, "grader", "expected", "lesson-23.json"), "{}");
    expect(heldBackProblems(edition, info)).toEqual(["grader/expected/lesson-23.json belongs to lesson-23, which the edition does not release"]);
    rmSync(join(edition, "grader", "expected", "lesson-23.json"));
    // Its website has the released lessons' pages and no broken link to the others.
    const site = run(["tools/site/cli.ts", "--out", join(edition, "site")]);
    expect(site.status, `${site.stdout}\n${site.stderr}`).toBe(0);
    expect(existsSync(join(edition, "site", "index.html"))).toBe(true);
  }, 300_000);

  it("type-checks (npm run typecheck): the learner's code and what it imports", () => {
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "."], { cwd: edition, encoding: "utf8" });
    expect(tsc.status, tsc.stdout).toBe(0);
    expect((JSON.parse(readFileSync(join(edition, "tsconfig.json"), "utf8")) as { include: string[] }).include).toEqual(["exercises", "stubs"]);
  }, 300_000);

  it("grades a released lesson, and says a held-back one is not released yet", () => {
    const stubs = run(["tools/loop/grade-cli.ts", "lesson-3"]);
    expect(stubs.stdout, stubs.stderr).toMatch(/functions pass/);
    const later = run(["tools/loop/grade-cli.ts", "lesson-23"]);
    expect(later.status).toBe(2);
    expect(later.stderr).toMatch(/^lesson-23 is not released yet in this edition: your instructor adds it with a later assignment \(released: lesson-1, lesson-2, lesson-3\)/);
    const hint = run(["tools/loop/hint-cli.ts", "lesson-6"]);
    expect(hint.status).toBe(2);
    expect(hint.stderr).toMatch(/lesson-6 is not released yet/);
  }, 120_000);

  it("takes the next assignment without touching the learner's files or progress", async () => {
    const mine = join(edition, "exercises", "lesson-3", "sampling.ts");
    writeFileSync(mine, `${readFileSync(mine, "utf8")}\n// my work in progress\n`);
    writeFileSync(join(edition, ".course-progress.json"), '{"version":1,"lessons":{"lesson-3":{"x":1}},"hints":{"lesson-3":{"a":2}}}\n');
    writeFileSync(join(edition, "notes.md"), "my notes\n");
    const learnerFiles = ["exercises/lesson-3/sampling.ts", ".course-progress.json", "notes.md"];
    const before = learnerFiles.map((f) => readFileSync(join(edition, f)));
    // A course file the learner wrote in (a margin note in a lesson): the new version replaces it, theirs is kept beside it.
    const lessonText = join(edition, "lessons", "03-inference-end-to-end.md");
    writeFileSync(lessonText, `${readFileSync(lessonText, "utf8")}\nmy margin note\n`);
    const annotated = readFileSync(lessonText);
    // The instructor's command, with the next assignment's file (kept outside the edition).
    const a2 = join(mkdtempSync(join(tmpdir(), "a2-")), "a2.json");
    writeFileSync(a2, JSON.stringify({ name: "a2", lessons: "4-5", deadline: "2026-12-15T23:59:00+01:00" }));
    const added = cli(["--into", edition, "--assignment", a2]);
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/added lessons 4-5 \(a2\) to .*: it holds lessons 1-5 now; \d+ learner file\(s\) in exercises\/ left as they were/);
    expect(learnerFiles.map((f) => readFileSync(join(edition, f)))).toEqual(before);
    expect(added.stdout).toMatch(/1 course file\(s\) had been changed in the edition; .*: lessons\/03-inference-end-to-end\.md → lessons\/03-inference-end-to-end\.md\.mine$/m);
    expect(readFileSync(`${lessonText}.mine`)).toEqual(annotated);
    expect(readFileSync(lessonText, "utf8")).not.toContain("my margin note");
    // Only the changed file was copied: every other course file was the one shipped, and is replaced quietly.
    expect(execFileSync("find", [".", "-name", "*.mine*", "-not", "-path", "./node_modules/*"], { cwd: edition, encoding: "utf8" }).trim()).toBe("./lessons/03-inference-end-to-end.md.mine");
    expect(readdirSync(join(edition, "grader", "expected")).sort()).toEqual(["lesson-3.json", "lesson-4.json", "lesson-5.json"]);
    const info = readEditionInfo(edition)!;
    expect(info.released).toEqual(["lesson-1", "lesson-2", "lesson-3", "lesson-4", "lesson-5"]);
    expect(info.assignments?.map((a) => [a.name, a.lessons])).toEqual([["a1", ["lesson-1", "lesson-2", "lesson-3"]], ["a2", ["lesson-4", "lesson-5"]]]);
    expect(readFileSync(join(edition, "README.md"), "utf8")).toMatch(/It holds lessons 1-5 of the course's 34/);
    expect(editionTextProblems(edition)).toEqual([]);
    // Adding it again is refused, in one line.
    await expect(extendEdition(edition, ["lesson-5"], "a3")).rejects.toThrow(/already holds lesson 5: nothing to add/);
    const again = cli(["--into", edition, "--assignment", a2]);
    expect(again.status).toBe(1);
    expect(again.stderr.trim()).toMatch(/^error: .* already holds lessons 4-5: nothing to add$/);
  }, 600_000);
});
