/**
 * The grader as vitest tests (grader/vitest/, the `grade` project): `vitest list` shows every
 * planned case of every graded lesson under its lesson and function, and runs no learner code; a
 * learner's exception reaches vitest's own JSON and JUnit reporters with the learner's file:line;
 * and over every lesson, on the stubs, on the solutions and on the known mistakes (the mutants,
 * bundled into learner files), the vitest tests give the same statuses and named mistakes as the
 * engine run without vitest (tools/loop/grading.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { gradedLessons, paths, ROOT } from "../grader/engine/paths.js";
import { loadGrader } from "../grader/engine/load.js";
import { plannedCases } from "../grader/engine/run.js";
import { caseKey } from "../grader/engine/protocol.js";
import type { CaseResult } from "../grader/engine/types.js";
import { gradeLesson } from "../tools/loop/grading.js";
import { scratch, workspace } from "./support/workspace.js";
import { mutantRound, mutantRounds, writeMutantLesson } from "./support/mutant-workspace.js";

interface JsonTest {
  ancestorTitles: string[];
  title: string;
  fullName: string;
  status: string;
  failureMessages: string[];
  meta: { courseCase?: CaseResult };
}
interface JsonReport {
  testResults: Array<{ name: string; assertionResults: JsonTest[] }>;
}

/** Runs the grade project's vitest with `args`; returns its exit status and output. */
function vitest(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0", ...env }, encoding: "utf8", timeout: 900_000, maxBuffer: 64 << 20 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

/** Every graded lesson (or those of `filters`) through the grade project, as vitest's JSON report. */
function runAll(env: Record<string, string>, filters: string[] = []): JsonReport {
  const file = join(scratch(), "report.json");
  const r = vitest(["run", "--project", "grade", ...filters, "--reporter=json", `--outputFile=${file}`], { COURSE_GRADE_AT_ONCE: "1", COURSE_PROGRESS_FILE: join(scratch(), "progress.json"), ...env });
  expect(existsSync(file), r.out.slice(-2000)).toBe(true);
  return JSON.parse(readFileSync(file, "utf8")) as JsonReport;
}

/** The tests of `report` by lesson, as "exercise::case" → test. */
function byLesson(report: JsonReport): Map<string, Map<string, JsonTest>> {
  const out = new Map<string, Map<string, JsonTest>>();
  for (const file of report.testResults) {
    const lesson = relative(join(ROOT, "grader"), file.name).split("/")[0];
    out.set(lesson, new Map(file.assertionResults.map((t) => [caseKey(t.ancestorTitles[1], t.title), t])));
  }
  return out;
}

describe("vitest list", () => {
  it("shows every planned case of every graded lesson under its lesson and function, and starts no learner code", async () => {
    const progress = join(scratch(), "progress.json");
    const file = join(scratch(), "list.json");
    const r = vitest(["list", "--project", "grade", `--json=${file}`], { COURSE_PROGRESS_FILE: progress });
    expect(r.status, r.out.slice(-2000)).toBe(0);
    const listed = JSON.parse(readFileSync(file, "utf8")) as Array<{ name: string; file: string }>;
    for (const lesson of gradedLessons()) {
      const want = plannedCases(await loadGrader(lesson)).map((c) => `${lesson} > ${c.exercise} > ${c.case}`);
      const got = listed.filter((t) => t.file === join(ROOT, "grader", lesson, "grade.test.ts")).map((t) => t.name);
      expect(got, lesson).toEqual(want);
    }
    // Listing graded nothing: no verdict was saved.
    expect(existsSync(progress)).toBe(false);
  }, 900_000);
});

describe("a learner's exception in vitest's reporters", () => {
  it("carries the learner's file:line in the JSON and the JUnit report", () => {
    // Line 2 of the workspace file (line 1 is the TensorFlow.js import), column 55: the throw.
    const dir = workspace(`export function maskedGae(): { advantages: tf.Tensor2D } { throw new Error("boom at a known line"); }`);
    const json = join(scratch(), "r.json");
    const junit = join(scratch(), "r.xml");
    vitest(["run", "--project", "grade", "grader/lesson-23/", "-t", "maskedGae", "--reporter=json", `--outputFile.json=${json}`, "--reporter=junit", `--outputFile.junit=${junit}`], {
      COURSE_EXERCISES_DIR: relative(ROOT, dir),
      COURSE_PROGRESS_FILE: join(scratch(), "p.json"),
    });
    const where = `${join(dir, "lesson-23", "ppo.ts")}:2:`;
    const tests = (JSON.parse(readFileSync(json, "utf8")) as JsonReport).testResults.flatMap((f) => f.assertionResults).filter((t) => t.ancestorTitles[1] === "maskedGae");
    expect(tests.length).toBeGreaterThan(0);
    for (const t of tests) {
      expect(t.status).toBe("failed");
      expect(t.failureMessages.join("\n")).toContain("threw an error: boom at a known line");
      expect(t.failureMessages.join("\n")).toContain(where);
    }
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testcase classname="grader\/lesson-23\/grade.test.ts" name="lesson-23 &gt; maskedGae &gt; worked example/);
    // JUnit names the frame relative to the project root.
    expect(xml).toContain(`❯ maskedGae ${relative(ROOT, where)}`);
  }, 300_000);
});

/** Rounds of known mistakes to grade (see below): every round with COURSE_ALL_MUTANTS=1, else the first. */
const rounds = process.env.COURSE_ALL_MUTANTS === "1" ? Math.max(...(await Promise.all(gradedLessons().map(mutantRounds)))) : 1;

describe("the same verdicts as the engine without vitest, over every lesson", () => {
  // The direct runs below save their verdicts of the stubs: not into the course's progress file.
  process.env.COURSE_PROGRESS_FILE = join(scratch(), "direct.json");
  /** vitest's tests of `lesson` against the engine's results for the same job: every case, status and mistake. */
  const sameVerdicts = (got: Map<string, JsonTest>, results: readonly CaseResult[], lesson: string) => {
    expect([...got.keys()], lesson).toEqual(results.map((r) => caseKey(r.exercise, r.case)));
    for (const r of results) {
      const t = got.get(caseKey(r.exercise, r.case))!;
      expect({ key: t.fullName, passed: t.status === "passed", status: t.meta.courseCase?.status, mistake: t.meta.courseCase?.mistake }).toEqual({ key: t.fullName, passed: r.status === "passed", status: r.status, mistake: r.mistake });
    }
  };

  it("on a known mistake (lesson 23's GAE without λ): the mistake is named in both", async () => {
    const dir = scratch();
    mkdirSync(join(dir, "lesson-23"));
    for (const f of readdirSync(join(paths.solutions, "lesson-23"))) {
      const text = readFileSync(join(paths.solutions, "lesson-23", f), "utf8");
      writeFileSync(join(dir, "lesson-23", f), f === "ppo.ts" ? text.replace("delta + gamma * lam * nextAdvantage", "delta + gamma * nextAdvantage") : text);
    }
    const env = { COURSE_EXERCISES_DIR: relative(ROOT, dir) };
    const got = byLesson(runAll(env, ["grader/lesson-23/"])).get("lesson-23")!;
    Object.assign(process.env, env);
    const direct = await gradeLesson("lesson-23", { caseTimeoutMs: 10_000 });
    delete process.env.COURSE_EXERCISES_DIR;
    expect(direct.run.results.filter((r) => r.mistake !== undefined).length).toBeGreaterThan(0);
    sameVerdicts(got, direct.run.results, "lesson-23");
  }, 600_000);

  // Every function's k-th known mistake, bundled into a learner workspace (test/support/mutant-workspace.ts),
  // graded through vitest and directly. CI grades round 0 (one mutant of every function of every lesson);
  // COURSE_ALL_MUTANTS=1 grades every round, i.e. every mutant. A long per-case limit (and so a long
  // diagnosis limit) lets both runs name every mistake they can, whatever the machine's load.
  for (let k = 0; k < rounds; k++) {
    it(`on known mistakes, round ${k + 1} of ${rounds} (each function's mistake no. ${k + 1}): every case, its status and its named mistake`, async () => {
      const dir = scratch();
      const lessons: string[] = [];
      const caught = new Map<string, string>();
      for (const lesson of gradedLessons()) {
        const round = await mutantRound(lesson, k);
        if (round.size === 0) continue;
        lessons.push(lesson);
        await writeMutantLesson(dir, lesson, round);
        for (const [exercise, m] of round) caught.set(`${lesson} ${exercise}`, m.id);
      }
      const env = { COURSE_EXERCISES_DIR: relative(ROOT, dir), COURSE_GRADE_TIMEOUT_MS: "60000" };
      const tests = byLesson(runAll(env, lessons.length === gradedLessons().length ? [] : lessons.map((l) => `grader/${l}/`)));
      Object.assign(process.env, { COURSE_EXERCISES_DIR: env.COURSE_EXERCISES_DIR });
      try {
        for (const lesson of lessons) {
          const direct = await gradeLesson(lesson, { caseTimeoutMs: 60_000 });
          expect(direct.run.fatal, lesson).toBeUndefined();
          sameVerdicts(tests.get(lesson)!, direct.run.results, lesson);
          // Each mutant is caught here as in the self-check: some case of its function does not pass.
          for (const [key, id] of caught) {
            if (!key.startsWith(`${lesson} `)) continue;
            const exercise = key.slice(lesson.length + 1);
            expect(direct.run.results.some((r) => r.exercise === exercise && r.status !== "passed"), `${lesson} ${id}`).toBe(true);
          }
        }
      } finally {
        delete process.env.COURSE_EXERCISES_DIR;
      }
    }, 3_600_000);
  }

  for (const [what, solutions] of [["the stubs", false], ["the solutions", true]] as const) {
    it(`on ${what}: every case, its status and its known mistake`, async () => {
      const tests = byLesson(runAll({ COURSE_GRADE_SOLUTIONS: solutions ? "1" : "" }));
      expect([...tests.keys()].sort()).toEqual([...gradedLessons()].sort());
      for (const lesson of gradedLessons()) {
        const direct = await gradeLesson(lesson, { solutions, caseTimeoutMs: 10_000 });
        expect(direct.run.fatal, lesson).toBeUndefined();
        sameVerdicts(tests.get(lesson)!, direct.run.results, lesson);
      }
    }, 1_800_000);
  }
});
