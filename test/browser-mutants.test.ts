/**
 * Every known mistake of every lesson the browser grades (tools/browser/lessons.ts), graded in
 * Chromium (test/support/browser-grading.ts): the reference with one function replaced by one of
 * its mutants (grader/lesson-NN/mutants*.ts), graded with `window.course.grade(…, { only })` on
 * that function's cases, must get the verdict its frozen fingerprints promise (the built folder's
 * expected/<lesson>.json, grader/engine/freeze.ts):
 * - it fails (or errs on) at least one case, as the self-check proves it does in Node;
 * - a case it fails with wrong values names the mistake the Node grader names: the first known
 *   mistake of the function, in list order, whose output equals the learner's (judge.ts
 *   matchMistake, frozen.ts frozenMistake), here the mutant's own output rebuilt from its
 *   fingerprint; a case it passes, errs on or fails otherwise (a leak) names none;
 * - its own mistake is named on a failing case, unless an earlier mutant's output equals its own
 *   on every case it fails with wrong values (Node names that one) or it fails none with wrong
 *   values (it throws): such mutants are listed, with the reason, after the run.
 * For a sample (the first and last mutant of three lessons) the Node grader (`grade-cli.ts
 * --json-file`) grades the same files, and the page's statuses and named mistakes equal its own.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportRecord } from "../tools/browser/page.js";
import { frozenMistake, mistakeOutput, parseFrozen, type FrozenCase, type FrozenLesson } from "../grader/engine/frozen.js";
import { loadGrader, loadMutants } from "../grader/engine/load.js";
import { paths } from "../grader/engine/paths.js";
import { BROWSER_LESSONS } from "../tools/browser/lessons.js";
import { browserGrade, browserReady, finishedLentLessons, mutatedFile, nodeGrade, openGradingPage, tempDirs, tsFiles, verdicts, type Files, type GradingPage } from "./support/browser-grading.js";

const ready = browserReady("browser-mutants.test.ts");
const dirs = tempDirs();

/** One known mistake, as the learner's files of its lesson that hold it. */
interface Mutant {
  lesson: string;
  exercise: string;
  name: string;
  mistake: string;
  files: Files;
}

/** The lesson's mutants in list order (loadMutants: file and list order, the order Node matches them in), each in the reference's files. */
async function lessonMutants(lesson: string): Promise<Mutant[]> {
  const grader = await loadGrader(lesson);
  const reference = tsFiles(join(paths.solutions, lesson));
  const fileOf = new Map(grader.exercises.map((e) => [e.name, e.file]));
  const bundles = new Map<string, Promise<(name: string) => string>>();
  const out: Mutant[] = [];
  for (const m of await loadMutants(lesson)) {
    const { exercise, mistake } = m.info;
    const file = fileOf.get(exercise);
    if (!file) throw new Error(`${lesson}: mutant ${m.id} replaces ${exercise}, which no exercise of the lesson is`);
    if (!bundles.has(exercise)) bundles.set(exercise, mutatedFile(lesson, exercise, file));
    const name = m.id.slice(exercise.length + 1);
    out.push({ lesson, exercise, name, mistake, files: { ...reference, [file]: (await bundles.get(exercise)!)(name) } });
  }
  return out;
}

const key = (exercise: string, caseName: string) => `${exercise} › ${caseName}`;

/** The mistake the Node grader names for `mutant` on a case it fails with wrong values: the first one whose output equals the mutant's own (rebuilt from its fingerprint). */
function promisedMistake(c: FrozenCase, mutant: Mutant): string | undefined {
  const own = c.mistakes.find((m) => m.name === mutant.name);
  if (!own) throw new Error(`${mutant.lesson}: the frozen case ${key(c.plan.exercise, c.plan.case)} lists no mistake named ${mutant.name}`);
  const value = own.fingerprint ? mistakeOutput(own.fingerprint, c.expected) : undefined;
  return value ? frozenMistake(c, { status: "ok", value, leaked: 0, mutated: [], ms: 0 }) : undefined;
}

/**
 * What is wrong with the page's report of `mutant` (nothing: []), by the rule above; `unnamed`
 * says why its own mistake is rightly named nowhere (an earlier mutant's output equals its own,
 * or it fails no case with wrong values: it throws, leaks), when that is so.
 */
function judgeReport(mutant: Mutant, report: readonly ReportRecord[], frozen: FrozenLesson): { problems: string[]; unnamed?: string } {
  const cases = new Map(frozen.cases.filter((c) => c.plan.exercise === mutant.exercise).map((c) => [key(c.plan.exercise, c.plan.case), c]));
  const problems: string[] = [];
  if ([...verdicts(report).keys()].join("\n") !== [...cases.keys()].join("\n")) problems.push(`graded ${report.length} cases, not the ${cases.size} frozen cases of ${mutant.exercise}`);
  const failing = report.filter((r) => r.status !== "passed");
  if (failing.length === 0) problems.push("passes every case");
  const promised = new Set<string>();
  for (const r of report) {
    const c = cases.get(key(r.exercise, r.name));
    if (!c) continue;
    const want = r.status === "failed" && r.wrongValues ? promisedMistake(c, mutant) : undefined;
    if (want) promised.add(want);
    if (r.mistake !== want) problems.push(`${r.name}: ${r.status}, names ${JSON.stringify(r.mistake)}, its fingerprint promises ${JSON.stringify(want)}`);
  }
  if (failing.some((r) => r.mistake === mutant.mistake) || promised.has(mutant.mistake)) return { problems };
  const statuses = failing.map((r) => `${r.name}: ${r.status}`).join("; ");
  if (promised.size > 0) return { problems, unnamed: `an earlier mutant's output equals its own, so both graders name ${[...promised].map((m) => JSON.stringify(m)).join(", ")}` };
  if (failing.length > 0) return { problems, unnamed: `it fails no case with wrong values (${statuses})` };
  return { problems };
}

let grading: GradingPage;
const frozen = new Map<string, FrozenLesson>();
const lent = new Map<string, Promise<Record<string, Files>>>();
/** The mutants Node grades too, by lesson: the first and the last. */
const SAMPLED = ["lesson-3", "lesson-11", "lesson-26"];
let sample: Promise<Array<{ mutant: Mutant; node: ReportRecord[] }>>;
/** Mutants whose own mistake is rightly named nowhere, and why: listed after the run. */
const unnamedMutants: string[] = [];

beforeAll(async () => {
  if (!ready) return;
  // The Node runs go one after another, beside the build and the page's grading (two cores are often all there is).
  sample = (async () => {
    const out: Array<{ mutant: Mutant; node: ReportRecord[] }> = [];
    for (const lesson of SAMPLED) {
      const all = await lessonMutants(lesson);
      for (const mutant of [all[0], all[all.length - 1]]) {
        const node = (await nodeGrade(dirs.fresh, { [lesson]: mutant.files }, [lesson, mutant.exercise])).get(lesson) ?? [];
        out.push({ mutant, node });
      }
    }
    return out;
  })();
  sample.catch(() => undefined);
  grading = await openGradingPage(join(dirs.fresh("course-browser-mutants-"), "site"));
  for (const lesson of BROWSER_LESSONS) frozen.set(lesson, parseFrozen(readFileSync(join(grading.out, grading.manifest.lessons[lesson].expected), "utf8")));
}, 600_000);

afterAll(async () => {
  await Promise.allSettled([sample]);
  await grading?.close();
  dirs.removeAll();
  if (unnamedMutants.length > 0) console.warn(`browser-mutants.test.ts: mutants whose own mistake neither grader names:\n  ${unnamedMutants.join("\n  ")}`);
}, 240_000);

/** The page's report of a mutant: its function's cases only, the lessons it borrows from finished as the Node grader hands them. */
async function gradeInPage(mutant: Mutant): Promise<ReportRecord[]> {
  if (!lent.has(mutant.lesson)) lent.set(mutant.lesson, finishedLentLessons(grading.manifest, mutant.lesson));
  return browserGrade(grading.page, mutant.lesson, mutant.files, { only: [mutant.exercise], otherLessons: await lent.get(mutant.lesson)! });
}

describe.skipIf(!ready)("every known mistake, graded in the browser", () => {
  for (const lesson of BROWSER_LESSONS) {
    it(`${lesson}: each mutant fails, and names the mistake its fingerprints promise`, async () => {
      const mutants = await lessonMutants(lesson);
      expect(mutants.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const mutant of mutants) {
        const judged = judgeReport(mutant, await gradeInPage(mutant), frozen.get(lesson)!);
        problems.push(...judged.problems.map((p) => `${mutant.exercise}-${mutant.name}: ${p}`));
        if (judged.unnamed) unnamedMutants.push(`${lesson} ${mutant.exercise}-${mutant.name}: ${judged.unnamed}`);
      }
      expect(problems).toEqual([]);
    }, 600_000);
  }

  it(`a sample (the first and last mutant of ${SAMPLED.join(", ")}): the Node grader's statuses and named mistakes`, async () => {
    const graded = await sample;
    expect(graded.length).toBe(SAMPLED.length * 2);
    for (const { mutant, node } of graded) {
      const inPage = await gradeInPage(mutant);
      expect(node.length).toBeGreaterThan(0);
      // Statuses and named mistakes, case by case.
      expect(verdicts(inPage), `${mutant.lesson} ${mutant.exercise}-${mutant.name}`).toEqual(verdicts(node.filter((r) => r.exercise === mutant.exercise)));
    }
  }, 600_000);
});
