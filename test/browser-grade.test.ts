/**
 * Grading in a browser (tools/browser/): the static folder is built into a temporary directory,
 * served on 127.0.0.1 and opened in Debian's chromium through playwright-core, as the site tests
 * do. For each lesson the browser supports (tools/browser/lessons.ts), `window.course.grade` must
 * give the Node grader's verdicts (`node --import tsx tools/loop/grade-cli.ts --json-file`
 * on a temporary workspace holding the same files): the same status a case for the untouched stubs,
 * and for a known mistake (its first mutant, bundled into a learner file), with the same named
 * mistake; the reference solution, written as a learner's finished files (the stub's resolver header,
 * with the lessons it borrows from given as finished too), passes every case the Node grader plans
 * (that it passes in Node too is the course's self-check). The Node grader runs once a set of files, over a workspace holding
 * every supported lesson. An endless loop in one function becomes a
 * timeout while the page keeps answering, and the other function still passes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// One record of `--json` (grade-cli.ts) or of `window.course.grade`: the page's own type.
import type { ReportRecord } from "../tools/browser/page.js";
import { ROOT, casesFile, paths } from "../grader/engine/paths.js";
import type { LessonGrader, MutantDef } from "../grader/engine/types.js";
import { BROWSER_LESSONS } from "../tools/browser/lessons.js";
import { generateStub } from "../lib/stubs.js";
import * as grading from "./support/browser-grading.js";
import { browserReady as chromiumPresent, mutatedFile, tempDirs, tsFiles, verdicts, type Files, type GradingPage } from "./support/browser-grading.js";

const browserReady = chromiumPresent("browser-grade.test.ts");

const dirs = tempDirs();
let opened: GradingPage;

/** The sets of files every supported lesson is graded on, and the Node grader's reports of them (one run each, in turn). */
interface Variant {
  files: Record<string, Files>;
  node: Promise<Map<string, ReportRecord[]>>;
}
let stubs: Variant;
/** Every case of a reference passes in Node too: the course's self-check proves it (test/selfcheck.test.ts), so no Node run here. */
let references: Omit<Variant, "node">;
let mistakes: Variant & { mutants: Record<string, MutantDef> };

beforeAll(async () => {
  if (!browserReady) return;
  const stubFiles = Object.fromEntries(BROWSER_LESSONS.map((l) => [l, tsFiles(join(ROOT, "exercises", l))]));
  const referenceFiles = Object.fromEntries(BROWSER_LESSONS.map((l) => [l, finishedFiles(l)]));
  const withMistakes = await Promise.all(BROWSER_LESSONS.map(async (l) => [l, await mutantFiles(l)] as const));
  // The Node runs go one after another, beside the build and the page's grading (two cores are often all there is).
  const stubsNode = nodeGrade(stubFiles);
  const mistakesNode = stubsNode.then(() => nodeGrade(Object.fromEntries(withMistakes.map(([l, m]) => [l, m.files]))));
  for (const p of [stubsNode, mistakesNode]) p.catch(() => undefined);
  stubs = { files: stubFiles, node: stubsNode };
  references = { files: referenceFiles };
  mistakes = { files: Object.fromEntries(withMistakes.map(([l, m]) => [l, m.files])), node: mistakesNode, mutants: Object.fromEntries(withMistakes.map(([l, m]) => [l, m.mutant])) };
  opened = await grading.openGradingPage(join(dirs.fresh("course-browser-grade-"), "site"));
  // Freezing and bundling all 29 lessons beside the rest of the suite on two cores: minutes.
}, 600_000);

afterAll(async () => {
  await Promise.allSettled([stubs?.node, mistakes?.node]);
  await opened?.close();
  dirs.removeAll();
}, 240_000);

/** The Node grader's JSON report of a workspace holding `lessons` (support/browser-grading.ts), of lesson `only` when given. */
const nodeGrade = (lessons: Record<string, Files>, only?: string) => grading.nodeGrade(dirs.fresh, lessons, only ? [only] : []);

/** The page's JSON report of the same files (and, for a lesson that borrows functions, the other lessons' files given to the page). */
const browserGrade = (lesson: string, files: Files, timeoutSeconds = 10, otherLessons: Record<string, Files> = {}) => grading.browserGrade(opened.page, lesson, files, { timeoutSeconds, otherLessons });

/**
 * The reference as a learner's finished files look: the stub's header (other lessons' functions
 * through lib/resolver.ts, a top-level await) with the reference's bodies, i.e. the reference with
 * its markers removed, turned into a stub (lib/stubs.ts) that has nothing left to replace.
 */
function finishedFiles(lesson: string): Files {
  const unmarked = (text: string) => text.replace(/^[ \t]*\/\/ (BEGIN|END) SOLUTION[ \t]*\n/gm, "");
  return Object.fromEntries(Object.entries(tsFiles(join(paths.solutions, lesson))).map(([f, text]) => [f, generateStub(unmarked(text), lesson, f)]));
}

/** The lessons the page's resolver lends while `lesson` is graded, finished as the Node grader's sandbox hands them (support/browser-grading.ts). */
const finishedLentLessons = (lesson: string) => grading.finishedLentLessons(opened.manifest, lesson);

/**
 * The lesson's files with one known mistake: the reference, except that the first mutant's
 * exercise is the mutant's function, bundled (with the lib/ code it uses) into that file, so it
 * is a learner file like any other (TensorFlow.js imported, nothing of the grader's imported).
 */
async function mutantFiles(lesson: string): Promise<{ files: Files; mutant: MutantDef }> {
  const { mutants } = (await import(join(ROOT, "grader", lesson, "mutants.ts"))) as { mutants: MutantDef[] };
  const grader = ((await import(casesFile(lesson))) as { default: LessonGrader }).default;
  const mutant = mutants[0];
  const file = grader.exercises.find((e) => e.name === mutant.exercise)!.file;
  const withMutant = await mutatedFile(lesson, mutant.exercise, file);
  return { files: { ...tsFiles(join(paths.solutions, lesson)), [file]: withMutant(mutant.name) }, mutant };
}

describe.skipIf(!browserReady)("grading in the browser", () => {
  for (const lesson of BROWSER_LESSONS) {
    describe(lesson, () => {
      it("the untouched stubs: the Node grader's statuses", async () => {
        const inPage = await browserGrade(lesson, stubs.files[lesson]);
        const inNode = (await stubs.node).get(lesson) ?? [];
        expect(inPage.length).toBeGreaterThan(0);
        expect(verdicts(inPage)).toEqual(verdicts(inNode));
        expect(inPage.every((r) => r.lesson === lesson && typeof r.message === "string")).toBe(true);
      }, 240_000);

      it("the reference solution, as a learner's finished files, passes every case, as in Node", async () => {
        const inPage = await browserGrade(lesson, references.files[lesson], 10, await finishedLentLessons(lesson));
        expect(inPage.filter((r) => r.status !== "passed").map((r) => `${r.exercise} › ${r.name}: ${r.status} ${r.message ?? ""}`)).toEqual([]);
        // The very cases the Node grader plans (its report of the stubs names each once).
        expect([...verdicts(inPage).keys()]).toEqual([...verdicts((await stubs.node).get(lesson) ?? []).keys()]);
      }, 240_000);

      it("a known mistake: the same failing cases and the same named mistake", async () => {
        // The lessons it borrows from finished, as the Node grader hands their references.
        const inPage = await browserGrade(lesson, mistakes.files[lesson], 10, await finishedLentLessons(lesson));
        const inNode = (await mistakes.node).get(lesson) ?? [];
        expect(verdicts(inPage)).toEqual(verdicts(inNode));
        expect(inPage.filter((r) => r.status !== "passed").length).toBeGreaterThan(0);
        // The mistake is named where Node names it (verdicts include it); at least once where Node names it at all.
        if (inNode.some((r) => r.mistake === mistakes.mutants[lesson].mistake)) expect(inPage.some((r) => r.mistake === mistakes.mutants[lesson].mistake)).toBe(true);
        // A failure's words are the judge's own (compareEncoded), the same in both.
        const nodeMessages = new Map(inNode.map((r) => [`${r.exercise} › ${r.name}`, r.message]));
        for (const r of inPage.filter((x) => x.status === "failed")) expect(r.message).toBe(nodeMessages.get(`${r.exercise} › ${r.name}`));
      }, 300_000);
    });
  }

  it("an exception: the same message and the learner's own file:line as in Node (source-mapped)", async () => {
    const lesson = "lesson-3";
    const reference = readFileSync(join(paths.solutions, lesson, "sampling.ts"), "utf8");
    const throwing = reference
      .replace("const { temperature = 0.85, topK", 'if (opts.topK === 4) throw new Error("boom");\n  const { temperature = 0.85, topK')
      .replace("tf.reshape(logits, [-1, V])", "tf.reshape(logits, [-1, V + (opts.topK === 8 ? 1 : 0)])");
    expect(throwing).not.toBe(reference);
    const files = { "sampling.ts": throwing };
    const [inNode, inPage] = await Promise.all([nodeGrade({ [lesson]: files }, lesson).then((m) => m.get(lesson) ?? []), browserGrade(lesson, files)]);
    const errors = (report: readonly ReportRecord[]) =>
      new Map(report.filter((r) => r.status === "error").map((r) => [`${r.exercise} › ${r.name}`, `${r.message} at ${String(r.location).replace(/^.*\/lesson-3\//, "lesson-3/")}`]));
    expect(errors(inPage).size).toBeGreaterThan(0);
    expect([...errors(inPage).values()].some((e) => /^tf\.reshape: .* at lesson-3\/sampling\.ts:\d+:\d+$/.test(e))).toBe(true);
    expect(errors(inPage)).toEqual(errors(inNode));
    expect(verdicts(inPage)).toEqual(verdicts(inNode));
  }, 120_000);

  it("a borrowed function (lib/resolver.ts) the learner has not written: the cases that call it say which lesson to finish first", async () => {
    const lesson = "lesson-5";
    // Lesson 4's files not given: the page's resolver hands its stubs' renderChat, as a student edition hands the learner's own.
    const report = await browserGrade(lesson, finishedFiles(lesson));
    const waiting = report.filter((r) => r.status === "error" && (r.message ?? "").includes("lesson-5 uses renderChat from lesson-4, which you have not written yet: finish lesson-4 first (npm run grade lesson-4)"));
    expect(waiting.length).toBeGreaterThan(0);
    // The functions that need no renderChat still pass.
    expect(report.some((r) => r.status === "passed")).toBe(true);
    expect(report.filter((r) => r.status !== "passed" && !waiting.includes(r))).toEqual([]);
  }, 120_000);

  it("lessons lent as a learner writes them (through lib/resolver.ts): lesson 12's model cases pass, lesson 11's attention taking lesson 12's own applyRope", async () => {
    const lesson = "lesson-12";
    const lent = Object.keys(opened.manifest.lessons[lesson].borrows ?? {});
    expect(lent).toContain("lesson-11");
    const report = await browserGrade(lesson, finishedFiles(lesson), 10, Object.fromEntries(lent.map((l) => [l, finishedFiles(l)])));
    expect(report.filter((r) => r.exercise === "generate").length).toBeGreaterThan(0);
    expect(report.filter((r) => r.status !== "passed").map((r) => `${r.exercise} › ${r.name}: ${r.status} ${r.message ?? ""}`)).toEqual([]);
  }, 120_000);

  it("an endless loop in one function is a timeout; the page stays responsive and the other function passes", async () => {
    const lesson = "lesson-3";
    const reference = readFileSync(join(paths.solutions, lesson, "sampling.ts"), "utf8");
    const looping = reference.replace(/export function sampleNextToken\(([^)]*)\): tf\.Tensor \{/, (head) => `${head}\n  while (true) {}`);
    expect(looping).not.toBe(reference);
    const t0 = Date.now();
    const grading = browserGrade(lesson, { "sampling.ts": looping }, 2);
    // While the worker spins, the page answers.
    await opened.page.waitForTimeout(1_000);
    const answerStart = Date.now();
    expect(await opened.page.evaluate(() => 1 + 1)).toBe(2);
    expect(Date.now() - answerStart).toBeLessThan(1_000);
    const report = await grading;
    const sample = report.filter((r) => r.exercise === "sampleNextToken");
    const filtered = report.filter((r) => r.exercise === "filteredProbabilities");
    expect(sample.length).toBeGreaterThan(0);
    expect(sample.every((r) => r.status === "timeout")).toBe(true);
    expect(sample[0].message).toMatch(/timed out after 2 s/);
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((r) => r.status === "passed")).toBe(true);
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 90_000);
});
