/**
 * The one seam between the course and lesson functions (docs: DESIGN.md, "One seam"): nothing in
 * exercises/, lib/ or labs/ imports solutions/, and lib/resolver.ts gives the learner's function
 * when it passes, the reference when the learner's is not started (or fails), and a clear
 * "finish lesson N first" when there is no reference to fall back on.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, paths } from "../grader/engine/paths.js";
import { formatChoices, LessonsNotFinishedError, parseUseReference, resolveFunction, resolveFunctions } from "../lib/resolver.js";
import "./support/grading.js";
import { generateStub } from "../lib/stubs.js";
import { lessonHash } from "../tools/loop/progress.js";
import { rmsNorm as referenceRmsNorm } from "../solutions/lesson-9/rmsnorm.js";

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === "node_modules" || name === "out") return [];
    return statSync(p).isDirectory() ? tsFiles(p) : name.endsWith(".ts") ? [p] : [];
  });
}

/** Every module specifier in `text`: static and type-only imports, re-exports, import(), typeof import(), require(). */
export function specifiers(text: string): string[] {
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/g,
    /\bimport\s*\(\s*["'`]([^"'`]+)["'`]/g,
    /\brequire\s*\(\s*["']([^"']+)["']/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

const intoSolutions = (file: string, spec: string) =>
  spec.startsWith(".") && (resolve(dirname(file), spec) + sep).startsWith(paths.solutions + sep);

describe("seam: nothing outside solutions/ and grader/ imports solutions/", () => {
  it("finds every kind of import (the check itself)", () => {
    const text = [
      'import { a } from "../../solutions/lesson-9/rmsnorm.js";',
      'import type { B } from "../../solutions/lesson-3/sampling.js";',
      'export { c } from "../../solutions/lesson-9/x.js";',
      'const m = await import("../../solutions/lesson-23/ppo.js");',
      'type F = typeof import("../../solutions/lesson-12/rope.js").applyRope;',
      'import {\n  d,\n  e,\n} from "../../solutions/lesson-13/ffn.js";',
    ].join("\n");
    const file = join(ROOT, "lib", "model", "x.ts");
    expect(specifiers(text).filter((s) => intoSolutions(file, s))).toHaveLength(6);
  });

  it("holds for every .ts file under exercises/, lib/ and labs/", () => {
    const offenders: string[] = [];
    for (const dir of ["exercises", "lib", "labs"]) {
      for (const file of tsFiles(join(ROOT, dir))) {
        for (const spec of specifiers(readFileSync(file, "utf8"))) {
          if (intoSolutions(file, spec)) offenders.push(`${relative(ROOT, file)}: ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the stub generator turns another lesson's import into the resolver (lesson 11's rmsNorm and applyRope)", () => {
    const stub = generateStub(readFileSync(join(paths.solutions, "lesson-11", "attention.ts"), "utf8"), "lesson-11", "attention.ts");
    const file = join(ROOT, "exercises", "lesson-11", "attention.ts");
    expect(specifiers(stub).filter((s) => intoSolutions(file, s))).toEqual([]);
    expect(stub).toContain('import type * as Lesson9Rmsnorm from "../lesson-9/rmsnorm.js";');
    expect(stub).toMatch(/const \{ fn: rmsNorm \} = await resolveFunction<typeof Lesson9Rmsnorm\.rmsNorm>\("lesson-9", "rmsNorm", \{ useReference: true \}\);/);
    expect(stub).toMatch(/const \{ fn: applyRope \} = await resolveFunction<typeof Lesson12Rope\.applyRope>\("lesson-12", "applyRope", \{ useReference: true \}\);/);
  });
});

describe("seam: resolveFunction", () => {
  // The learner's folder must sit directly in the repository root (tools/loop/locations.ts).
  const workspace = mkdtempSync(join(ROOT, ".selfcheck-seam-"));
  const noSolutions = mkdtempSync(join(tmpdir(), "seam-no-solutions-"));
  const progress = join(mkdtempSync(join(tmpdir(), "seam-progress-")), "progress.json");
  const savedProgress = process.env.COURSE_PROGRESS_FILE;
  beforeAll(() => {
    process.env.COURSE_PROGRESS_FILE = progress;
  });
  afterAll(() => {
    if (savedProgress === undefined) delete process.env.COURSE_PROGRESS_FILE;
    else process.env.COURSE_PROGRESS_FILE = savedProgress;
    for (const d of [workspace, noSolutions, dirname(progress)]) rmSync(d, { recursive: true, force: true });
  });
  const solution = (lesson: string, file: string) => readFileSync(join(paths.solutions, lesson, file), "utf8");
  const put = (lesson: string, file: string, text: string) => {
    mkdirSync(join(workspace, lesson), { recursive: true });
    writeFileSync(join(workspace, lesson, file), text);
  };
  put("lesson-9", "rmsnorm.ts", solution("lesson-9", "rmsnorm.ts"));
  put("lesson-10", "loss.ts", generateStub(solution("lesson-10", "loss.ts"), "lesson-10", "loss.ts"));

  it("takes the learner's function when it passes every case", async () => {
    const r = await resolveFunction<typeof referenceRmsNorm>("lesson-9", "rmsNorm", { exercisesDir: workspace });
    expect(r.source).toBe("exercises");
    expect(r.why).toMatch(/^passes (\d+)\/\1 cases$/);
    expect(r.fn).not.toBe(referenceRmsNorm);
    expect(typeof r.fn).toBe("function");
  });

  it("takes the reference for an untouched stub, without grading it", async () => {
    const r = await resolveFunction("lesson-10", "causalLmLoss", { exercisesDir: workspace });
    expect(r).toMatchObject({ source: "solutions", why: "not started" });
  });

  it("takes the reference when told to (--use-reference), even for a passing function", async () => {
    const r = await resolveFunction("9", "rmsNorm", { exercisesDir: workspace, useReference: parseUseReference(["--use-reference", "lesson-9"]) });
    expect(r).toMatchObject({ source: "solutions", why: "--use-reference" });
    expect(r.fn).toBe(referenceRmsNorm);
    expect((await resolveFunction("lesson-9", "rmsNorm", { exercisesDir: workspace, useReference: true })).fn).toBe(referenceRmsNorm);
  });

  it("says 'finish lesson N first' when the learner's is not ready and no reference is present", async () => {
    await expect(resolveFunction("lesson-10", "causalLmLoss", { exercisesDir: workspace, solutionsDir: noSolutions })).rejects.toThrow(
      /finish lesson 10 first: `npm run grade lesson-10`/,
    );
    // Without solutions/, --use-reference cannot help either.
    await expect(resolveFunction("lesson-10", "causalLmLoss", { exercisesDir: workspace, solutionsDir: noSolutions, useReference: true })).rejects.toThrow(/finish lesson 10 first/);
  });

  it("names every missing function of a run in one message, with the lessons to finish (issue 22, item 11)", async () => {
    const homes = { causalLmLoss: "lesson-10", feedForward: "lesson-13", rmsNorm: "lesson-9" };
    const empty = mkdtempSync(join(tmpdir(), "seam-empty-"));
    const err = await resolveFunctions<Record<keyof typeof homes, unknown>>(homes, { exercisesDir: empty, solutionsDir: noSolutions }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LessonsNotFinishedError);
    const message = (err as Error).message;
    expect(message).toMatch(/^this run needs 3 functions/);
    for (const name of Object.keys(homes)) expect(message).toMatch(new RegExp(`\\n  ${name} \\(lesson-\\d+\\) is needed here`));
    expect(message).toMatch(/finish lessons 9, 10, 13 first, starting with `npm run grade lesson-9`$/);
    expect(message).not.toMatch(/\n\s+at /);
  });

  it("reuses a saved progress record whose hash matches, instead of grading again", async () => {
    put("lesson-13", "ffn.ts", solution("lesson-13", "ffn.ts"));
    const saved = process.env.COURSE_EXERCISES_DIR;
    process.env.COURSE_EXERCISES_DIR = workspace;
    const hash = lessonHash("lesson-13");
    if (saved === undefined) delete process.env.COURSE_EXERCISES_DIR;
    else process.env.COURSE_EXERCISES_DIR = saved;
    // A record that (falsely) says feedForward failed: believed, since the files did not change.
    const record = { hash, gradedAt: new Date().toISOString(), functions: { feedForward: { verdict: "failed", passed: 1, total: 5 }, moeFeedForward: { verdict: "passed", passed: 7, total: 7 } } };
    writeFileSync(progress, JSON.stringify({ version: 1, lessons: { "lesson-13": record }, hints: {} }));
    const { choices } = await resolveFunctions<{ feedForward: unknown; moeFeedForward: unknown }>({ feedForward: "lesson-13", moeFeedForward: "lesson-13" }, { exercisesDir: workspace });
    expect(choices).toEqual([
      { lesson: "lesson-13", name: "feedForward", source: "solutions", why: "fails 4 of 5 cases" },
      { lesson: "lesson-13", name: "moeFeedForward", source: "exercises", why: "passes 7/7 cases" },
    ]);
  });

  it("a lesson 11 finished from its stub (rmsNorm and applyRope through the resolver) passes the isolated grader", async () => {
    // The solution without its markers, through the generator: the stub's resolver header, a finished body.
    const finished = generateStub(solution("lesson-11", "attention.ts").replace(/^\s*\/\/ (BEGIN|END) SOLUTION\n/gm, ""), "lesson-11", "attention.ts");
    expect(finished).toContain("await resolveFunction");
    put("lesson-11", "attention.ts", finished);
    const { choices } = await resolveFunctions<{ repeatKv: unknown; attention: unknown }>({ repeatKv: "lesson-11", attention: "lesson-11" }, { exercisesDir: workspace });
    expect(choices.map((c) => [c.source, c.why.replace(/\d+/g, "N")])).toEqual([
      ["exercises", "passes N/N cases"],
      ["exercises", "passes N/N cases"],
    ]);
  });

  it("prints a whose-functions table that fits 100 columns", () => {
    const lines = formatChoices([
      { lesson: "lesson-23", name: "maskedGae", source: "exercises", why: "passes 10/10 cases" },
      { lesson: "lesson-23", name: "ppoPolicyLoss", source: "solutions", why: "not started" },
      { lesson: "lesson-24", name: "groupRelativeAdvantages", source: "solutions", why: "--use-reference" },
    ]);
    expect(lines[0]).toMatch(/^maskedGae\s+lesson-23\s+yours \(passes 10\/10 cases\)$/);
    expect(lines[1]).toMatch(/reference \(not started\)$/);
    expect(lines[2]).toMatch(/reference \(--use-reference\)$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
  });
});
