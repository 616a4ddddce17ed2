/**
 * A student edition without lesson 4's solution ships no tokenizer that answers lesson 4 (issue 20):
 * lib/tokenizer.ts's fast encode and decode are withheld, and the edition's tokenizer runs the
 * learner's own bpeEncode and bpeDecode (lib/preloaded.ts), in a command and inside the grading
 * sandbox (lesson 5's cases take a live tokenizer), or says "finish lesson 4 first". Lesson 5,
 * published there, is graded against its frozen expectations, made with the course's tokenizer.
 * The same edition names a known mistake in Chinese (COURSE_LANG=zh) though it ships no mutants:
 * its frozen expectations carry each mistake's mutant name.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { readEditionInfo } from "../lib/course/edition.js";
import { courseTokenizer } from "../lib/tokenizer.js";
import { buildEdition } from "../tools/release/edition.js";
import zhLesson3 from "../grader/lesson-3/zh.js";
import { mutantRound, writeMutantLesson } from "./support/mutant-workspace.js";

const TEXTS = ["Nora counted 12 apples and gave 5 to Tom.", "<|im_start|>user\n你好，世界！<|im_end|>\n", "  spaces\tand\ttabs  ", ""];

/** A learner's script in the edition: the tokenizer after the preload every tokenizing command does. */
const SCRIPT = `
import { connectGrading } from "./lib/resolver.js";
import { preloadLessonFunctions } from "./lib/preloaded.js";
import { courseTokenizer } from "./lib/tokenizer.js";
connectGrading(new URL("./tools/loop/resolver-grading.ts", import.meta.url).href);
await preloadLessonFunctions();
const tok = courseTokenizer();
try {
  const ids = ${JSON.stringify(TEXTS)}.map((t) => tok.encode(t));
  console.log(JSON.stringify({ ids, texts: ids.map((x) => tok.decode(x)), skipped: tok.decode(ids[1], { skipSpecialTokens: true }) }));
} catch (err) {
  console.log(JSON.stringify({ error: err.message }));
}
`;

describe("an edition without lesson 4's solution", () => {
  let edition = "";
  const env = () => {
    const { COURSE_EXERCISES_DIR: _, COURSE_PROGRESS_FILE: __, ...rest } = process.env;
    return { ...rest, FORCE_COLOR: "0" };
  };
  const run = (args: string[]) => spawnSync(process.execPath, ["--import", "tsx", ...args], { cwd: edition, encoding: "utf8", env: env(), timeout: 240_000 });
  const script = () => {
    const r = run(["tokenize.ts"]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { ids?: number[][]; texts?: string[]; skipped?: string; error?: string };
  };
  const gradeLesson5 = () => {
    const file = join(edition, "lesson-5.json");
    run(["tools/loop/grade-cli.ts", "lesson-5", "--json-file", file]);
    return JSON.parse(readFileSync(file, "utf8")) as Array<{ exercise?: string; status: string; message?: string }>;
  };

  beforeAll(async () => {
    edition = mkdtempSync(join(tmpdir(), "course-edition-l4-"));
    // Lesson 5 published, lesson 4 not: lesson 5 is graded against its frozen expectations, since its
    // reference would run the learner's tokenizer here.
    await buildEdition(edition, { published: ["lesson-5"], released: ["lesson-1", "lesson-2", "lesson-3", "lesson-4", "lesson-5"], assignment: "a1" });
    symlinkSync(join(ROOT, "node_modules"), join(edition, "node_modules"));
    writeFileSync(join(edition, "tokenize.ts"), SCRIPT);
    // Lesson 5 written correctly by the learner: its grade then depends only on lesson 4.
    for (const f of readdirSync(join(ROOT, "solutions", "lesson-5"))) copyFileSync(join(ROOT, "solutions", "lesson-5", f), join(edition, "exercises", "lesson-5", f));
  }, 600_000);
  afterAll(() => rmSync(edition, { recursive: true, force: true }));

  it("ships lib/tokenizer.ts with lesson 4's answer withheld", () => {
    const text = readFileSync(join(edition, "lib", "tokenizer.ts"), "utf8");
    expect(text).toContain(`preloadedFunction<BpeEncode>("lesson-4", "bpeEncode")(model, text)`);
    expect(text).toContain(`preloadedFunction<BpeDecode>("lesson-4", "bpeDecode")(model, [...ids])`);
    for (const answer of ["2097152", "bestRank", "mergeOf", "CHAR_TO_BYTE.get(c)"]) expect(text).not.toContain(answer);
    expect(readEditionInfo(edition)!.answerModules).toContainEqual(expect.objectContaining({ file: "lib/tokenizer.ts", lesson: "lesson-4", shipped: "withheld" }));
  });

  it("with lesson 4 not started: a tokenizer says to finish lesson 4, and lesson 5's tokenizer cases fail saying so", () => {
    expect(script().error).toMatch(/bpeEncode \(lesson-4\) is needed here, but yours is not started .*finish lesson 4 first: `npm run grade lesson-4`/);
    const records = gradeLesson5();
    const failing = records.filter((r) => r.status !== "passed");
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.some((r) => /uses bpeEncode from lesson-4, which you have not written yet: finish lesson-4 first/.test(r.message ?? ""))).toBe(true);
  }, 300_000);

  it("with the learner's lesson 4 passing: the same ids and texts as the course's tokenizer, and lesson 5 passes", () => {
    for (const f of readdirSync(join(ROOT, "solutions", "lesson-4"))) copyFileSync(join(ROOT, "solutions", "lesson-4", f), join(edition, "exercises", "lesson-4", f));
    const full = courseTokenizer();
    const ids = TEXTS.map((t) => full.encode(t));
    const out = script();
    expect(out.error).toBeUndefined();
    expect(out.ids).toEqual(ids);
    expect(out.texts).toEqual(ids.map((x) => full.decode(x)));
    expect(out.skipped).toBe(full.decode(ids[1], { skipSpecialTokens: true }));
    const records = gradeLesson5();
    expect(records.filter((r) => r.status !== "passed")).toEqual([]);
    expect(records.length).toBeGreaterThan(10);
  }, 300_000);

  it("names a known mistake of lesson 3 in Chinese with COURSE_LANG=zh, from the frozen expectations", async () => {
    const round = await mutantRound("lesson-3", 0);
    await writeMutantLesson(join(edition, "exercises"), "lesson-3", round);
    const zh = spawnSync(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", "lesson-3"], { cwd: edition, encoding: "utf8", env: { ...env(), COURSE_LANG: "zh" }, timeout: 240_000 });
    const named = [...round.values()].map((m) => zhLesson3.mistakes[m.info.exercise]?.[m.id.slice(m.info.exercise.length + 1)]).filter((t): t is string => !!t);
    expect(named.length).toBeGreaterThan(0);
    expect(named.some((t) => zh.stdout.includes(t.slice(0, 20))), zh.stdout).toBe(true);
    expect(zh.stdout).not.toContain([...round.values()][0].info.mistake.slice(0, 30));
  }, 300_000);
});
