/**
 * The student edition (issue 14): frozen expectations give the same verdicts and the same named
 * mistakes as the reference, for every graded lesson and every stub, reference and mutant; a built
 * edition installs, grades and resets without solutions/, leaks no solution line, and takes a
 * published lesson later without touching the learner's work.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend.js";
import { freezeLesson } from "../grader/engine/freeze.js";
import { frozenMistake, parseFrozen, serializeFrozen } from "../grader/engine/frozen.js";
import { judgeCase, matchMistake } from "../grader/engine/judge.js";
import { caseOutput } from "../grader/engine/outputs.js";
import { ROOT, gradedLessons } from "../grader/engine/paths.js";
import { findCase } from "../grader/engine/run.js";
import { loadLessonUnderTest } from "../grader/engine/selfcheck.js";
import { generateStub } from "../lib/stubs.js";
import { readdirSync } from "node:fs";
import { buildEdition, editionStub, findLeaks, publishInto } from "../tools/release/edition.js";
import { editionTextProblems } from "../tools/release/text.js";
import { checkEdition } from "../tools/release/check.js";
import { scratch } from "./support/workspace.js";

describe("frozen expectations give the reference's verdicts", () => {
  for (const lesson of gradedLessons()) {
    it(`${lesson}: every stub, reference and mutant gets the same status and named mistake`, async () => {
      const backend = await initBackend("cpu");
      const l = await loadLessonUnderTest(lesson);
      const frozen = parseFrozen(serializeFrozen(await freezeLesson(lesson, backend)));
      // The stubs, loaded as a learner's module would be.
      const stubDir = mkdtempSync(join(ROOT, ".selfcheck-"));
      try {
        mkdirSync(join(stubDir, lesson));
        for (const f of readdirSync(join(ROOT, "solutions", lesson)).filter((x) => x.endsWith(".ts"))) {
          writeFileSync(join(stubDir, lesson, f), generateStub(readFileSync(join(ROOT, "solutions", lesson, f), "utf8"), lesson, f));
        }
        const { loadImplementation } = await import("../grader/engine/load.js");
        const stubs = (await loadImplementation(l.grader, join(stubDir, lesson))).impl;
        for (const fc of frozen.cases) {
          const { ex, c } = findCase(l.grader, fc.plan.exercise, fc.plan.case)!;
          const live = caseOutput(ex, c, l.reference[ex.name]!);
          const liveExpected = c.expected ? fc.expected : live; // fixture cases: the stored values either way
          const mutants = l.mutants.filter((m) => m.info.exercise === ex.name).map((m) => ({ label: m.id, mistake: m.info.mistake, output: caseOutput(ex, c, m.fn) }));
          // Every implementation a learner's file could be: the stub, the reference, each known mistake.
          const outputs = [{ label: "stub", output: caseOutput(ex, c, stubs[ex.name]!) }, { label: "reference", output: live }, ...mutants];
          for (const { label, output: got } of outputs) {
            expect(got.inputsHash, `${label} · ${c.name}: inputs hash`).toBe(fc.inputsHash);
            const a = judgeCase(fc.plan, got, liveExpected, { outputOrder: ex.outputOrder });
            const b = judgeCase(fc.plan, got, fc.expected, { outputOrder: ex.outputOrder });
            expect(b.status, `${label} · ${c.name}`).toBe(a.status);
            if (a.status === "failed") expect(frozenMistake(fc, got), `${label} · ${c.name}: named mistake`).toBe(matchMistake(got, mutants, { output: liveExpected, tolerance: fc.plan.tolerance }));
          }
        }
      } finally {
        rmSync(stubDir, { recursive: true, force: true });
      }
    }, 600_000);
  }
});

describe("a student edition", () => {
  let edition = "";
  const run = (cmd: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ["--import", "tsx", ...cmd], { cwd: edition, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", ...env } });

  beforeAll(async () => {
    edition = mkdtempSync(join(tmpdir(), "course-edition-"));
    await buildEdition(edition, []);
    symlinkSync(join(ROOT, "node_modules"), join(edition, "node_modules"));
  }, 600_000);
  afterAll(() => rmSync(edition, { recursive: true, force: true }));

  it("has no solutions, no mutant source and no line of an unpublished solution", () => {
    expect(existsSync(join(edition, "solutions"))).toBe(false);
    for (const lesson of gradedLessons()) {
      const shipped = readdirSync(join(edition, "grader", lesson)).sort();
      expect(shipped, lesson).toContain("cases.ts");
      expect(shipped.filter((f) => /^(mutants|variants|parity)\b/.test(f)), `${lesson}: mutant source or parity scripts`).toEqual([]);
    }
    expect(existsSync(join(edition, "tools", "parity"))).toBe(false);
    expect(existsSync(join(edition, "grader", "expected", "lesson-23.json"))).toBe(true);
    // The website an edition builds holds no answer either.
    const site = run(["tools/site/cli.ts", "--out", join(edition, "site")]);
    expect(site.status, site.stderr).toBe(0);
    expect(existsSync(join(edition, "site", "index.html"))).toBe(true);
    expect(findLeaks(edition, [])).toEqual([]);
  }, 300_000);

  it("has text that fits it: only its own files and scripts named, no solutions promised", () => {
    expect(editionTextProblems(edition)).toEqual([]);
    const readme = readFileSync(join(edition, "README.md"), "utf8");
    expect(readme).toMatch(/It holds every lesson of the course\./);
    expect(readme).toMatch(/Reference solutions: not included\./);
    const scripts = Object.keys((JSON.parse(readFileSync(join(edition, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    expect(scripts).not.toEqual(expect.arrayContaining(["bench"]));
    for (const gone of ["bench", "stubs", "fixtures", "gradebook", "release"]) expect(scripts, gone).not.toContain(gone);
  });

  it("grades stubs, a finished lesson and a known mistake as the full course does", () => {
    const stubs = run(["tools/loop/grade-cli.ts", "lesson-23"]);
    expect(stubs.status).toBe(1);
    expect(stubs.stdout).toMatch(/0\/5 functions pass/);
    expect(stubs.stdout).toMatch(/maskedGae\s+not implemented/);
    // The reference, copied in as the learner's work, passes on frozen expectations alone.
    cpSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), join(edition, "exercises", "lesson-23", "ppo.ts"));
    const done = run(["tools/loop/grade-cli.ts", "lesson-23"]);
    expect(done.stdout).toMatch(/5\/5 functions pass/);
    expect(done.status).toBe(0);
    // A known mistake is named from its fingerprint, as the full course names it from the mutant.
    const wrong = readFileSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), "utf8").replace("maskedMean(tf.maximum(unclippedLoss, clippedLoss), mask)", "maskedMean(tf.minimum(unclippedLoss, clippedLoss), mask)");
    expect(wrong).not.toBe(readFileSync(join(ROOT, "solutions", "lesson-23", "ppo.ts"), "utf8"));
    writeFileSync(join(edition, "exercises", "lesson-23", "ppo.ts"), wrong);
    const named = run(["tools/loop/grade-cli.ts", "lesson-23", "clippedValueLoss"]);
    const full = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-23", "clippedValueLoss"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, FORCE_COLOR: "0", COURSE_EXERCISES_DIR: relativeWorkspace(wrong), COURSE_PROGRESS_FILE: join(mkdtempSync(join(tmpdir(), "p-")), "p.json") },
    });
    const hint = (s: string) => /hint: (.*)/.exec(s)?.[1];
    expect(hint(named.stdout)).toBeDefined();
    expect(hint(named.stdout)).toBe(hint(full.stdout));
    // npm run reset restores the stub from stubs/, without solutions/.
    const reset = run(["tools/loop/reset-cli.ts", "lesson-23", "--yes"]);
    expect(reset.status, `${reset.stdout}\n${reset.stderr}`).toBe(0);
    expect(readFileSync(join(edition, "exercises", "lesson-23", "ppo.ts"), "utf8")).toBe(readFileSync(join(edition, "stubs", "lesson-23", "ppo.ts"), "utf8"));
    // The edition's stub is the course's, its note naming the edition's commands (no solutions/ there).
    expect(readFileSync(join(edition, "stubs", "lesson-23", "ppo.ts"), "utf8")).toBe(editionStub(readFileSync(join(ROOT, "exercises", "lesson-23", "ppo.ts"), "utf8"), "lesson-23"));
  }, 120_000);

  it("publishes a lesson later without touching the learner's files or progress", () => {
    const mine = join(edition, "exercises", "lesson-24", "grpo.ts");
    writeFileSync(mine, `${readFileSync(mine, "utf8")}\n// my work in progress\n`);
    writeFileSync(join(edition, ".course-progress.json"), '{"version":1,"lessons":{},"hints":{}}\n');
    const before = [readFileSync(mine, "utf8"), readFileSync(join(edition, ".course-progress.json"), "utf8")];
    const info = publishInto(edition, ["lesson-23"]);
    expect(info.published).toEqual(["lesson-23"]);
    expect(existsSync(join(edition, "solutions", "lesson-23", "ppo.ts"))).toBe(true);
    expect([readFileSync(mine, "utf8"), readFileSync(join(edition, ".course-progress.json"), "utf8")]).toEqual(before);
    expect(findLeaks(edition, ["lesson-23"])).toEqual([]);
    // The README says so now.
    expect(readFileSync(join(edition, "README.md"), "utf8")).toMatch(/Reference solutions: included for lesson 23 \(`solutions\/`\); not included for the other lessons\./);
    expect(editionTextProblems(edition)).toEqual([]);
  });

  it("checks out against this repository", async () => {
    expect(await checkEdition(edition)).toEqual([]);
  }, 600_000);
});

/** A workspace inside the repository holding `text` as lesson-23/ppo.ts, for grading in the full course. */
function relativeWorkspace(text: string): string {
  const dir = scratch();
  mkdirSync(join(dir, "lesson-23"));
  writeFileSync(join(dir, "lesson-23", "ppo.ts"), text);
  return dir.slice(ROOT.length + 1);
}
