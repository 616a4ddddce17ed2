/**
 * The learner's commands in Chinese (issue 28): every graded lesson's grader/lesson-NN/zh.ts names
 * exactly the exercises of its hints.ts and every (exercise, mutant) of its mutant lists, each
 * text non-empty and Chinese; courseLang's rules; the lookup's fallbacks; the engine's per-case
 * messages (grader/messages-zh.ts: every English family the engine builds has its Chinese rule);
 * and real runs of the grade, hint and reset commands (a wrong function, a refused import), in
 * Chinese with COURSE_LANG=zh and unchanged English without it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT, gradedLessons, hintsFile, mutantFiles, paths } from "../grader/engine/paths.js";
import { TIERS, type LessonHints } from "../grader/engine/hint-types.js";
import { summarise } from "../grader/engine/summary.js";
import type { CaseResult, MutantDef } from "../grader/engine/types.js";
import type { LessonZh } from "../grader/engine/zh-types.js";
import { displayWidth, loadLessonZh, localHints, localiseMistakes, padDisplay, wrapWide, zhFile } from "../grader/i18n.js";
import { courseLang, courseLangWarning } from "../lib/lang.js";
import { findLesson } from "../lib/catalog.js";
import { generateStub } from "../lib/stubs.js";
import { compareEncoded, type Encoded } from "../grader/engine/encoded.js";
import { judgeCase, probeFinding } from "../grader/engine/judge.js";
import type { CaseOutput } from "../grader/engine/outputs.js";
import { localiseCase, messageCode, zhMessage } from "../grader/messages-zh.js";
import { mutantRound, writeMutantLesson } from "./support/mutant-workspace.js";

/** Any CJK ideograph or CJK punctuation. */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;

/** `file:lines` citations (trainer/train_ppo.py:139-150): each must stay exactly as in English. */
const CITATION = /[\w./-]+\.(?:py|ts|json|md):\d+(?:-\d+)?/g;

const withZh = gradedLessons().filter((l) => existsSync(zhFile(l)));

async function lessonTexts(lesson: string): Promise<{ hints: LessonHints; mutants: MutantDef[]; zh: LessonZh }> {
  const hints = ((await import(pathToFileURL(hintsFile(lesson)).href)) as { default: LessonHints }).default;
  const mutants: MutantDef[] = [];
  for (const f of mutantFiles(lesson)) mutants.push(...((await import(pathToFileURL(f).href)) as { mutants: MutantDef[] }).mutants);
  const zh = ((await import(pathToFileURL(zhFile(lesson)).href)) as { default: LessonZh }).default;
  return { hints, mutants, zh };
}

describe("every lesson's Chinese texts match its English ones", () => {
  it("some lessons have them", () => {
    expect(withZh.length).toBeGreaterThan(0);
  });

  it.each(withZh)("%s: exactly the hinted exercises, three Chinese tiers each, citations kept", async (lesson) => {
    const { hints, zh } = await lessonTexts(lesson);
    expect(zh.lesson).toBe(lesson);
    expect(Object.keys(zh.hints).sort()).toEqual(Object.keys(hints.functions).sort());
    for (const [name, en] of Object.entries(hints.functions)) {
      const tiers = zh.hints[name];
      expect(Object.keys(tiers).sort(), `${lesson} ${name}`).toEqual(TIERS.map((t) => t.key).sort());
      for (const { key } of TIERS) {
        const text = tiers[key];
        expect(typeof text === "string" && text.trim() !== "", `${lesson} ${name}.${key} is empty`).toBe(true);
        expect(text, `${lesson} ${name}.${key} has no Chinese`).toMatch(CJK);
        for (const c of en[key].match(CITATION) ?? []) expect(text, `${lesson} ${name}.${key} lost the citation ${c}`).toContain(c);
      }
    }
  });

  it.each(withZh)("%s: exactly its mutants' mistakes, each in Chinese", async (lesson) => {
    const { mutants, zh } = await lessonTexts(lesson);
    const expected = mutants.map((m) => `${m.exercise} ${m.name}`).sort();
    const given = Object.entries(zh.mistakes).flatMap(([ex, byName]) => Object.keys(byName).map((n) => `${ex} ${n}`)).sort();
    expect(given).toEqual(expected);
    for (const m of mutants) {
      const text = zh.mistakes[m.exercise][m.name];
      expect(typeof text === "string" && text.trim() !== "", `${lesson} ${m.exercise} ${m.name} is empty`).toBe(true);
      expect(text, `${lesson} ${m.exercise} ${m.name} has no Chinese`).toMatch(CJK);
    }
  });

  // Every graded lesson has its zh.ts: a new lesson without one fails here.
  it("no graded lesson lacks a zh.ts", () => {
    expect(gradedLessons().filter((l) => !existsSync(zhFile(l)))).toEqual([]);
  });
});

describe("courseLang", () => {
  it("COURSE_LANG=en|zh wins over the locale", () => {
    expect(courseLang({ COURSE_LANG: "zh" })).toBe("zh");
    expect(courseLang({ COURSE_LANG: "zh", LC_ALL: "en_US.UTF-8" })).toBe("zh");
    expect(courseLang({ COURSE_LANG: "en", LANG: "zh_CN.UTF-8", LC_ALL: "zh_CN.UTF-8" })).toBe("en");
    expect(courseLang({ COURSE_LANG: " ZH " })).toBe("zh");
  });

  it("any other COURSE_LANG means English, with one warning for the CLI to print", () => {
    expect(courseLang({ COURSE_LANG: "fr", LANG: "zh_CN.UTF-8" })).toBe("en");
    expect(courseLang({ COURSE_LANG: "zh_CN" })).toBe("en");
    expect(courseLangWarning({ COURSE_LANG: "fr" })).toMatch(/^COURSE_LANG=fr .*English/);
    expect(courseLangWarning({ COURSE_LANG: "zh" })).toBeUndefined();
    expect(courseLangWarning({ COURSE_LANG: "en" })).toBeUndefined();
    expect(courseLangWarning({})).toBeUndefined();
  });

  it("without COURSE_LANG: LC_ALL, then LC_MESSAGES, then LANG; zh* is Chinese", () => {
    expect(courseLang({})).toBe("en");
    expect(courseLang({ LANG: "zh_CN.UTF-8" })).toBe("zh");
    expect(courseLang({ LANG: "zh_TW" })).toBe("zh");
    expect(courseLang({ LC_MESSAGES: "zh_CN.UTF-8", LANG: "en_US.UTF-8" })).toBe("zh");
    expect(courseLang({ LC_ALL: "zh_CN.UTF-8", LANG: "en_US.UTF-8" })).toBe("zh");
    expect(courseLang({ LC_ALL: "C.UTF-8", LANG: "zh_CN.UTF-8" })).toBe("en");
    expect(courseLang({ LANG: "C.UTF-8" })).toBe("en");
    expect(courseLang({ COURSE_LANG: "", LANG: "zh_CN.UTF-8" })).toBe("zh");
  });
});

describe("the lookup", () => {
  const saved = process.env.COURSE_LANG;
  beforeEach(() => {
    process.env.COURSE_LANG = "zh";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.COURSE_LANG;
    else process.env.COURSE_LANG = saved;
  });

  it("a missing hint tier, or a lesson without zh.ts, falls back to the English text", async () => {
    const en: LessonHints = { lesson: "lesson-x", functions: { f: { nudge: "n", keyIdea: "k", formula: "F" }, g: { nudge: "n2", keyIdea: "k2", formula: "F2" } } };
    const partial = { lesson: "lesson-x", hints: { f: { nudge: "点拨", keyIdea: "", formula: undefined } }, mistakes: {} } as unknown as LessonZh;
    expect(localHints(en, partial).functions).toEqual({ f: { nudge: "点拨", keyIdea: "k", formula: "F" }, g: en.functions.g });
    expect(localHints(en, undefined)).toBe(en);
    expect(await loadLessonZh("lesson-999")).toBeUndefined();
  });

  it("a named mistake is shown in Chinese, the same mistake named as in English; an unknown text stays English", async () => {
    const lesson = withZh.includes("lesson-3") ? "lesson-3" : withZh[0];
    const { mutants, zh } = await lessonTexts(lesson);
    const m = mutants[0];
    const failed = (i: number, mistake: string): CaseResult => ({ exercise: m.exercise, case: `case ${i}`, kind: "worked", status: "failed", wrongValues: true, mistake, tolerance: { rtol: 0, atol: 0 }, ms: 1 });
    const summaries = summarise([failed(1, m.mistake), failed(2, m.mistake), failed(3, "a text no mutant has")]);
    const shown = await localiseMistakes(lesson, summaries);
    expect(shown[0].results.map((r) => r.mistake)).toEqual([zh.mistakes[m.exercise][m.name], zh.mistakes[m.exercise][m.name], "a text no mutant has"]);
    const { formatLessonReport } = await import("../grader/report.js");
    const text = formatLessonReport("title", shown, { verbose: false });
    expect(text).toContain(`提示：在 3 个失败用例中的 2 个上，你的输出与一个已知错误一致：${zh.mistakes[m.exercise][m.name]}`);
    expect(text).toMatch(/未通过\s+0\/3 个用例/);
    delete process.env.COURSE_LANG;
    const english = await localiseMistakes(lesson, summaries);
    expect(english.every((s, i) => s === summaries[i])).toBe(true);
    expect(formatLessonReport("title", english, { verbose: false })).not.toMatch(CJK);
  });

  it("npm run watch's lines and the progress table's cells speak Chinese, cut by terminal columns", async () => {
    const { functionLines, progressCell } = await import("../tools/loop/status.js");
    const { lessonRecord } = await import("../tools/loop/progress.js");
    const r = (exercise: string, status: CaseResult["status"], mistake?: string): CaseResult => ({ exercise, case: `${exercise} case`, kind: "worked", status, wrongValues: true, mistake, tolerance: { rtol: 0, atol: 0 }, ms: 1 });
    const summaries = summarise([r("a", "passed"), r("b", "failed", "一个很长的已知错误，".repeat(10)), r("c", "not-implemented")]);
    const lines = functionLines(summaries, 80);
    expect(lines[0]).toMatch(/✓ a\s+通过\s+1\/1/);
    expect(lines[1]).toContain("已知错误：一个很长的");
    expect(displayWidth(lines[1])).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/…$/);
    expect(lines[2]).toMatch(/尚未实现/);
    expect(progressCell(lessonRecord("h", summarise([r("c", "not-implemented")])))).toContain("尚未开始（0/1）");
    expect(progressCell(undefined)).toContain("尚未评分");
  });

  it("pads and wraps by terminal columns", () => {
    expect(displayWidth("尚未实现")).toBe(8);
    expect(padDisplay("尚未实现", 15)).toBe(`尚未实现${" ".repeat(7)}`);
    const wrapped = wrapWide("把 x 平方，在最后一维上用 keepDims 求均值（形状 [..., 1]），加上 ε，取 rsqrt，乘到 x 上，再乘以增益。", 30, "  ");
    for (const line of wrapped.split("\n")) {
      expect(displayWidth(line)).toBeLessThanOrEqual(30);
      expect(line.trimStart()).not.toMatch(/^[，。）]/);
    }
    // Nothing lost but the spaces where a line breaks.
    expect(wrapped.replace(/\s+/g, "")).toBe("把x平方，在最后一维上用keepDims求均值（形状[...,1]），加上ε，取rsqrt，乘到x上，再乘以增益。");
  });
});

// ── real runs of the commands, on a throw-away workspace of lesson stubs ──

/** The lesson the issue names (lesson-23) once its zh.ts exists; lesson 3 until then. */
const RUN_LESSON = withZh.includes("lesson-23") ? "lesson-23" : "lesson-3";
const WS = mkdtempSync(join(ROOT, ".lang-zh-"));
const PROGRESS_DIR = mkdtempSync(join(tmpdir(), "course-lang-"));
afterAll(() => {
  rmSync(WS, { recursive: true, force: true });
  rmSync(PROGRESS_DIR, { recursive: true, force: true });
});

function writeStubs(lesson: string): void {
  const dir = join(WS, lesson);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
    writeFileSync(join(dir, f), generateStub(readFileSync(join(paths.solutions, lesson, f), "utf8"), lesson, f));
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One of the course's commands in a child process: the locale and COURSE_LANG exactly as `lang` says. */
function cli(script: string, args: string[], lang: Record<string, string>, progress: string): Promise<Run> {
  return cliIn(WS, script, args, lang, progress);
}

/** `cli` on the workspace `ws`. */
function cliIn(ws: string, script: string, args: string[], lang: Record<string, string>, progress: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, COURSE_EXERCISES_DIR: relative(ROOT, ws), COURSE_PROGRESS_FILE: progress, FORCE_COLOR: "0" };
  for (const k of Object.keys(env)) if (k.startsWith("npm_config_") || k.startsWith("COURSE_GRADE_")) delete env[k];
  for (const k of ["COURSE_LANG", "LANG", "LC_ALL", "LC_MESSAGES"]) delete env[k];
  Object.assign(env, lang);
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** The report without what changes from run to run: the grading time, the type check's progress. */
const steady = (s: string) =>
  s
    .replace(/ · \d+(\.\d+)?(e[-+]?\d+)? s$/gm, " · <time> s")
    .split("\n")
    // The type check races the grading: a note while it runs, an empty line once it found nothing.
    .map((l) => (l.includes("the type check of your files is still running") ? "" : l))
    .join("\n");

describe(`COURSE_LANG=zh npm run grade ${RUN_LESSON}`, () => {
  it("reports in Chinese; unset (or en, whatever the locale), in English without a Chinese character", { timeout: 300_000 }, async () => {
    writeStubs(RUN_LESSON);
    const progress = (name: string) => join(PROGRESS_DIR, `${name}.json`);
    const zh = await cli("tools/loop/grade-cli.ts", [RUN_LESSON], { COURSE_LANG: "zh" }, progress("zh"));
    expect(zh.code, zh.stderr).toBe(1);
    expect(zh.stdout).toMatch(/尚未实现\s+0\/\d+ 个用例/);
    expect(zh.stdout).toMatch(/0\/\d+ 个函数通过 · cpu 后端/);
    // The lesson's Chinese title, from the first heading of its Chinese lesson.
    const zhTitle = /^# 第 \d+ 课 — (.+)$/m.exec(readFileSync(join(ROOT, "lessons", "zh", findLesson(RUN_LESSON)!.file), "utf8"))![1];
    expect(zh.stdout.split("\n")[0]).toContain(`${RUN_LESSON} · ${zhTitle}`);
    expect(zh.stdout).toMatch(new RegExp(`然后再运行一次 \`[^\`]*npm run grade ${RUN_LESSON}\``));

    const en = await cli("tools/loop/grade-cli.ts", [RUN_LESSON], { LANG: "C.UTF-8" }, progress("en"));
    expect(en.code, en.stderr).toBe(1);
    expect(`${en.stdout}${en.stderr}`).not.toMatch(CJK);
    expect(en.stdout).toMatch(/not implemented\s+0\/\d+ cases/);
    expect(en.stdout).toMatch(/0\/\d+ functions pass · cpu backend/);
    expect(en.stdout).toContain(`Read lessons/`);

    // COURSE_LANG=en under a Chinese locale prints exactly what the unset run printed.
    const forced = await cli("tools/loop/grade-cli.ts", [RUN_LESSON], { COURSE_LANG: "en", LANG: "zh_CN.UTF-8", LC_ALL: "zh_CN.UTF-8" }, progress("en"));
    expect(steady(forced.stdout)).toBe(steady(en.stdout));
  });

  it("--json stays English", { timeout: 300_000 }, async () => {
    writeStubs(RUN_LESSON);
    const r = await cli("tools/loop/grade-cli.ts", [RUN_LESSON, "--json"], { COURSE_LANG: "zh" }, join(PROGRESS_DIR, "json.json"));
    expect(r.stdout).not.toMatch(CJK);
    expect((JSON.parse(r.stdout) as Array<{ status: string }>).every((c) => c.status === "not-implemented")).toBe(true);
  });
});

describe("npm run hint in Chinese", () => {
  it("shows the Chinese tier and messages; unset, the English ones", async () => {
    const { zh, hints } = await lessonTexts(RUN_LESSON);
    const first = Object.keys(hints.functions)[0];
    const inZh = await cli("tools/loop/hint-cli.ts", [RUN_LESSON, first], { COURSE_LANG: "zh" }, join(PROGRESS_DIR, "hint-zh.json"));
    expect(inZh.code, inZh.stderr).toBe(0);
    expect(inZh.stdout).toContain(`${RUN_LESSON} · ${first} — 第 1 条提示（共 3 条）`);
    expect(inZh.stdout).toContain("1. 点拨");
    expect(inZh.stdout.replace(/\s+/g, "")).toContain(zh.hints[first].nudge.replace(/\s+/g, ""));
    const inEn = await cli("tools/loop/hint-cli.ts", [RUN_LESSON, first], {}, join(PROGRESS_DIR, "hint-en.json"));
    expect(inEn.code, inEn.stderr).toBe(0);
    expect(inEn.stdout).not.toMatch(CJK);
    expect(inEn.stdout).toContain(`${RUN_LESSON} · ${first} — hint 1 of 3`);
  });

  it("usage errors in Chinese; an unknown COURSE_LANG warns once and stays English", async () => {
    const unknown = await cli("tools/loop/hint-cli.ts", ["lesson-99"], { COURSE_LANG: "zh" }, join(PROGRESS_DIR, "u.json"));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/未知的课程 "lesson-99"/);
    expect(unknown.stderr).toMatch(/^用法：npm run hint/m);
    const fr = await cli("tools/loop/hint-cli.ts", ["lesson-99"], { COURSE_LANG: "fr" }, join(PROGRESS_DIR, "f.json"));
    expect(fr.code).toBe(2);
    expect(fr.stderr.split("\n").filter((l) => l.startsWith("COURSE_LANG=fr"))).toHaveLength(1);
    expect(fr.stderr).toMatch(/unknown lesson "lesson-99"/);
    expect(fr.stderr).not.toMatch(CJK);
  });
});

// ── the engine's per-case messages (grader/messages-zh.ts) ──

describe("the engine's messages in Chinese", () => {
  const saved = process.env.COURSE_LANG;
  beforeEach(() => {
    process.env.COURSE_LANG = "zh";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.COURSE_LANG;
    else process.env.COURSE_LANG = saved;
  });

  const tensor = (shape: number[], values: number[], dtype = "float32"): Encoded => ({ t: "tensor", shape, dtype, data: dtype === "int32" ? Int32Array.from(values) : Float32Array.from(values) });
  const tol = { rtol: 1e-5, atol: 1e-6 };
  const exact = { rtol: 0, atol: 0 };
  const obj = (keys: string[], values: Encoded[], ordered = false): Encoded => ({ t: "object", keys, values, ...(ordered ? { ordered: true as const } : {}) });
  const num = (v: number): Encoded => ({ t: "number", v });
  const str = (v: string): Encoded => ({ t: "string", v });

  /** Each English line, as the engine builds it today, by the function that builds it. */
  async function englishLines(): Promise<string[]> {
    const m = (got: Encoded, want: Encoded, t = tol) => {
      const r = compareEncoded(got, want, t);
      expect(r, "the engine found no mismatch").not.toBeNull();
      return [r!.message, ...r!.details];
    };
    const lines = [
      ...m(tensor([2], [1, 2]), tensor([2], [1, 3])),
      ...m(tensor([2], [NaN, 2]), tensor([2], [1, 2])),
      ...m(tensor([], [1]), tensor([], [0]), exact),
      ...m(tensor([2, 1], [1, 2]), tensor([2], [1, 2])),
      ...m(tensor([4], [1, 2, 3, 4]), tensor([2, 2], [1, 2, 3, 4])),
      ...m(tensor([2], [1, 2]), tensor([], [3])),
      ...m(tensor([2], [1, 2], "int32"), tensor([2], [1, 2])),
      ...m(tensor([20], Array.from({ length: 20 }, (_, i) => i), "int32"), tensor([20], Array.from({ length: 20 }, (_, i) => (i === 9 ? 0 : i)), "int32")),
      ...m({ t: "disposed-tensor", shape: [2], dtype: "float32" }, tensor([2], [1, 2])),
      ...m({ t: "undefined" }, tensor([2], [1, 2])),
      ...m({ t: "promise" }, num(1)),
      ...m(str("a"), num(1)),
      ...m({ t: "array", items: [num(1)] }, { t: "array", items: [num(1), num(2)] }),
      ...m(num(1), { t: "array", items: [num(1)] }),
      ...m(num(1), obj(["a"], [num(1)])),
      ...m(obj(["a", "b"], [num(2), num(1)]), obj(["a", "c"], [num(1), num(1)])),
      ...m(obj(["b", "a"], [num(1), num(1)]), obj(["a", "b"], [num(1), num(1)], true)),
      ...m(str("returned without an error"), str("threw an error")),
      ...m({ t: "boolean", v: true }, { t: "boolean", v: false }),
      ...m({ t: "other", what: "a Map of 2 entries (return a plain object or an array)" }, { t: "null" }),
      ...m(str("x".repeat(100)), str(`${"x".repeat(50)}y${"x".repeat(49)}`)),
    ];
    const planned = { exercise: "f", case: "c", kind: "worked" as const, tolerance: tol, file: "f.ts" };
    const ok = (value: Encoded, extra: Partial<{ leaked: number; mutated: string[] }> = {}): CaseOutput => ({ status: "ok", value, leaked: 0, mutated: [], ms: 1, ...extra });
    const judged = judgeCase(planned, ok(num(1), { leaked: 2, mutated: ["x was disposed", "y values changed", "opts changed"] }), ok(num(2)), { checks: "the mean over the batch" });
    lines.push(judged.message!, ...judged.details!);
    for (const r of [judgeCase(planned, ok(num(1), { mutated: ["x values changed"] }), ok(num(1))), judgeCase(planned, ok(num(1), { leaked: 3 }), ok(num(1))), judgeCase(planned, ok(num(1)), { status: "error", message: "boom", ms: 0 })]) {
      lines.push(r.message!, ...(r.details ?? []));
    }
    lines.push(probeFinding("row", tol, [{ label: "row 1", output: ok(num(0.31)) }], [{ label: "row 1", output: ok(num(0.19)) }])!);
    lines.push(probeFinding("row", tol, [{ label: "row 1", output: ok(tensor([2], [1, 2])) }], [{ label: "row 1", output: ok(tensor([2], [1, 3])) }])!);
    lines.push(probeFinding("row", tol, [{ label: "row 1", output: { status: "error", message: "boom", ms: 0 } }], [{ label: "row 1", output: ok(num(1)) }])!);
    lines.push(probeFinding("row", tol, [{ label: "row 1", output: { status: "not-implemented", message: "todo", ms: 0 } }], [{ label: "row 1", output: ok(num(1)) }])!);
    // Refusals made while bundling (bundle.ts, answers.ts), in this process.
    const { answerModuleRefusal } = await import("../grader/engine/answers.js");
    const { refusedLessonFolder } = await import("../grader/engine/bundle.js");
    const refusal = answerModuleRefusal("lesson-4", join(ROOT, "lib", "tokenizer.ts"));
    expect(refusal).toBeDefined();
    lines.push(refusal!, `exercises/lesson-4/bpe.ts ${refusal!}`, refusedLessonFolder("lesson-3", join(paths.solutions, "lesson-3"))!);
    // Messages built in the isolate (this process) and in the learner's or reference process,
    // written as their templates write them (isolate.ts, learner-child.ts, run.ts, outputs.ts,
    // bundle.ts, sandbox.ts, judge.ts): a change to one of those templates fails this list.
    lines.push(
      "the result your code's process sent for this case does not fit the grading protocol (Invalid input: expected number): something in the code under test wrote to the grading channel",
      "a second result arrived for this case: something in the code under test wrote to the grading channel",
      "exercises/lesson-3/sampling.ts is missing: restore it with `npm run reset lesson-3` or `git checkout -- exercises/lesson-3/sampling.ts`",
      "your code stopped the grading process while loading (exited (code 1) during this case: does the code call process.exit, or run out of memory?)",
      "loading took longer than 30 s (does a module run an endless loop at import time?)",
      "timed out after 10 s: an endless loop, or far too slow?",
      "the grading process stalled between cases",
      "the grading process exited (SIGKILL) during this case: does the code call process.exit, or run out of memory?",
      "not run: an earlier case of sampleNextToken timed out",
      "not run: an earlier case of sampleNextToken crashed the grader",
      "the reference process sent no expected value",
      "grader bug: this case's inputs differ from those its expectations were frozen with (a changed generator?): ask for a new release of the course",
      "no result came back for this case: the grading process stopped early, or the code under test interfered with it",
      "lesson-3 has neither its reference solution (solutions/lesson-3) nor frozen expectations (grader/expected/lesson-3.json) to grade against",
      "the reference process took longer than 120 s",
      "the reference process stopped (code 1)",
      "exercises/lesson-3/sampling.ts is a symbolic link: the grader grades only real files in your lesson folder, so replace the link with the file itself",
      "exercises/lesson-3/sampling.ts could not be loaded: exercises/lesson-3/sampling.ts:2:38: imports the reference solution (solutions/lesson-3/sampling.ts): a grade must come from your own code, so remove that import",
      "exercises/lesson-3/sampling.ts could not be loaded: exercises/lesson-3/sampling.ts:2:38: imports a grader file (grader/lesson-3/cases.ts), which an exercise may not do",
      "sampling.ts threw while loading: boom (at exercises/lesson-3/sampling.ts:3:7)",
      "sampling.ts does not export a function named sampleNextToken",
      "your code switched TensorFlow.js from the cpu backend to wasm: grading runs on cpu, so leave the backend alone in an exercise",
      "the result could not be read: getter threw",
      "it was an object with keys { a }",
      'threw string "boom"',
      "TensorFlow.js has no gradient for this op: see the lesson's note on ops without gradients",
      "a tensor was used after it was disposed (did a tf.tidy free something you return?)",
      "the shapes of the two operands do not broadcast: line them up with expandDims/reshape (e.g. [B] → [B, 1])",
      "lesson-11 uses rmsNorm from lesson-9, which you have not written yet: finish lesson-9 first (npm run grade lesson-9)",
      "lesson-9's rmsNorm is not available while lesson-11 is graded: an exercise may use other lessons' functions only",
      "no OS sandbox here (unprivileged user namespaces are not available (unshare: unshare failed: Operation not permitted)): your code runs under Node's permission model only, and can see and signal other processes of your user",
      "could not grade lesson-3: the reference process stopped (code 1)",
    );
    return lines;
  }

  it("every message family the engine builds has a rule, and its Chinese keeps the numbers, shapes and paths", async () => {
    const lines = await englishLines();
    const unknown = lines.filter((l) => messageCode(l) === undefined);
    expect(unknown, "English messages no rule of grader/messages-zh.ts translates").toEqual([]);
    for (const line of lines) {
      const text = zhMessage(line);
      expect(text, line).toMatch(CJK);
      // Numbers, [shapes], `identifiers` and paths stay exactly as in English.
      for (const kept of line.match(/\[[^\]]*\]|`[^`]*`|[\w-]+\/[\w./-]+|\d+(\.\d+)?/g) ?? []) expect(text, `${line}: lost ${kept}`).toContain(kept);
    }
  });

  it("a case result is translated where it is shown; English, and unknown texts, stay as they are", async () => {
    const r: CaseResult = { exercise: "f", case: "c", kind: "worked", status: "failed", message: "the result differs from the reference (2 of 4 elements)", details: ["worst at [1]: got 18, expected 11", "tolerance: exact"], tolerance: exact, ms: 1 };
    expect(localiseCase(r)).toMatchObject({ message: "结果与参考答案不同（4 个元素中有 2 个）", details: ["偏差最大处在 [1]：得到 18，期望 11", "容差：必须完全相等"] });
    expect(zhMessage("Error: my own words")).toBe("Error: my own words");
    delete process.env.COURSE_LANG;
    expect(localiseCase(r)).toBe(r);
    expect(zhMessage(r.message!)).toBe(r.message);
  });

  it("the vitest failure and the not-released line speak Chinese; in English, unchanged", async () => {
    const { caseFailure } = await import("../grader/vitest/failure.js");
    const r = { exercise: "f", status: "failed" as const, message: "the result has shape [2, 1], expected [2]", details: ["a trailing axis of size 1: squeeze it"], mistake: "m", inputs: ["x: float32 [2, 1]"] };
    expect(caseFailure(r).message).toBe("结果错误：结果的形状是 [2, 1]，应为 [2]\n  末尾多了一个大小为 1 的轴：用 squeeze 去掉它\n  看起来是一个已知错误：m\n  输入：\n    x: float32 [2, 1]");
    const { notReleasedMessage } = await import("../lib/course/edition.js");
    const edition = mkdtempSync(join(tmpdir(), "course-edition-"));
    try {
      writeFileSync(join(edition, ".course-edition.json"), JSON.stringify({ version: 1, published: [], released: ["lesson-1"], commit: "x", builtAt: "x" }));
      expect(notReleasedMessage("lesson-3", edition)).toBe("lesson-3 在这个版本中尚未发布：你的老师会在之后的作业中加入它（已发布：lesson-1）");
      delete process.env.COURSE_LANG;
      expect(notReleasedMessage("lesson-3", edition)).toBe("lesson-3 is not released yet in this edition: your instructor adds it with a later assignment (released: lesson-1)");
      expect(caseFailure(r).message).toBe("wrong result: the result has shape [2, 1], expected [2]\n  a trailing axis of size 1: squeeze it\n  looks like a known mistake: m\n  inputs:\n    x: float32 [2, 1]");
    } finally {
      rmSync(edition, { recursive: true, force: true });
    }
  });

  it("--compare's headers", async () => {
    const { formatComparison } = await import("../tools/loop/compare.js");
    const fns = [{ name: "f", yours: ["return 1;"], yoursFile: "exercises/lesson-3/a.ts", reference: ["return 2;"], referenceFile: "solutions/lesson-3/a.ts" }];
    const wide = formatComparison(fns, 200);
    expect(wide).toMatch(/你的代码：exercises\/lesson-3\/a\.ts\s+│ 参考答案：solutions\/lesson-3\/a\.ts/);
    expect(formatComparison(fns, 20)).toContain("参考答案（solutions/lesson-3/a.ts）：");
    expect(formatComparison([{ ...fns[0], yours: undefined, yoursFile: undefined }], 20)).toContain("（你的文件里没有函数 f）");
    delete process.env.COURSE_LANG;
    expect(formatComparison(fns, 200)).toMatch(/yours: exercises\/lesson-3\/a\.ts\s+│ reference: solutions\/lesson-3\/a\.ts/);
    expect(formatComparison(fns, 20)).toContain("reference (solutions/lesson-3/a.ts):");
    expect(formatComparison(fns, 200)).not.toMatch(CJK);
  });
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A lesson that grades in seconds, for the runs below. */
const SMALL = "lesson-3";
const WS2 = mkdtempSync(join(ROOT, ".lang-zh-"));
afterAll(() => rmSync(WS2, { recursive: true, force: true }));

function cli2(script: string, args: string[], lang: Record<string, string>, name: string): Promise<Run> {
  return cliIn(WS2, script, args, lang, join(PROGRESS_DIR, `${name}.json`));
}

describe(`npm run grade ${SMALL} on a wrong function, and on a refused import`, () => {
  it("a wrong function's case reads in Chinese; in English exactly as before", { timeout: 300_000 }, async () => {
    await writeMutantLesson(WS2, SMALL, await mutantRound(SMALL, 0));
    const zhRun = await cli2("tools/loop/grade-cli.ts", [SMALL], { COURSE_LANG: "zh" }, "m-zh");
    expect(zhRun.code, zhRun.stderr).toBe(1);
    expect(zhRun.stdout).toMatch(/^ {10}结果与参考答案不同（\d+ 个元素中有 \d+ 个）$/m);
    expect(zhRun.stdout).toMatch(/^ {10}容差：/m);
    expect(zhRun.stdout).not.toMatch(/differs from the reference|tolerance:/);

    const en = await cli2("tools/loop/grade-cli.ts", [SMALL], {}, "m-en");
    expect(en.code, en.stderr).toBe(1);
    expect(`${en.stdout}${en.stderr}`).not.toMatch(CJK);
    expect(en.stdout).toMatch(/^ {10}the result differs from the reference \(\d+ of \d+ elements\)$/m);
    expect(en.stdout).toMatch(/^ {10}worst at \[\d+(, \d+)*\]: got \S+, expected \S+$/m);
    expect(en.stdout).toMatch(/^ {10}tolerance: (exact|\|got − expected\| ≤ \S+ \+ \S+·\|expected\|)$/m);
    const forced = await cli2("tools/loop/grade-cli.ts", [SMALL], { COURSE_LANG: "en", LANG: "zh_CN.UTF-8" }, "m-en");
    expect(steady(forced.stdout)).toBe(steady(en.stdout));
  });

  it("an import of the reference is refused in Chinese; in English in the words it had", { timeout: 300_000 }, async () => {
    const file = join(WS2, SMALL, "sampling.ts");
    const stub = generateStub(readFileSync(join(paths.solutions, SMALL, "sampling.ts"), "utf8"), SMALL, "sampling.ts");
    writeFileSync(file, `import { sampleNextToken as theirs } from "../../solutions/${SMALL}/sampling.ts";\n${stub}\nexport const borrowed = theirs;\n`);
    const shown = relative(ROOT, file);
    const zhRun = await cli2("tools/loop/grade-cli.ts", [SMALL], { COURSE_LANG: "zh" }, "r-zh");
    expect(zhRun.code, zhRun.stderr).toBe(1);
    expect(zhRun.stdout).toContain(`${shown} 无法加载（${shown}:1:`);
    expect(zhRun.stdout).toContain(`）：导入了参考答案（solutions/${SMALL}/sampling.ts）：成绩必须来自你自己的代码，所以请删掉这个 import`);
    expect(zhRun.stdout).toMatch(/未能加载\s+0\/\d+ 个用例/);
    const en = await cli2("tools/loop/grade-cli.ts", [SMALL], {}, "r-en");
    expect(en.code, en.stderr).toBe(1);
    expect(`${en.stdout}${en.stderr}`).not.toMatch(CJK);
    expect(en.stdout).toMatch(new RegExp(`^  ! ${escape(shown)} could not be loaded: ${escape(shown)}:1:\\d+: imports the reference solution \\(solutions/${SMALL}/sampling\\.ts\\): a grade must come from your own code, so remove that import$`, "m"));
  });
});

describe("npm run reset in Chinese", () => {
  it("usage and messages in Chinese; in English unchanged", { timeout: 60_000 }, async () => {
    const zhHelp = await cli2("tools/loop/reset-cli.ts", ["--help"], { COURSE_LANG: "zh" }, "reset");
    expect(zhHelp.code).toBe(0);
    expect(zhHelp.stdout).toMatch(/^用法：npm run reset lesson-NN \[函数名\] \[-- --yes\]$/m);
    expect(zhHelp.stdout).toContain("你当前的文件总会先保存到 .backups/ 下。");
    const enHelp = await cli2("tools/loop/reset-cli.ts", ["--help"], {}, "reset");
    expect(enHelp.code).toBe(0);
    expect(enHelp.stdout).toBe(
      [
        "usage: npm run reset lesson-NN [function] [-- --yes]",
        "",
        "  npm run reset lesson-23              every exercise file of lesson-23 back to its stub",
        "  npm run reset lesson-23 maskedGae    only the body of maskedGae back to the stub",
        "  npm run reset lesson-23 -- --yes     without asking",
        "",
        "Your current file is always saved under .backups/ first.",
        "",
      ].join("\n"),
    );
    const tooMany = await cli2("tools/loop/reset-cli.ts", [SMALL, "a", "b"], { COURSE_LANG: "zh" }, "reset");
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/^参数太多：lesson-3 a b$/m);
    expect(tooMany.stderr).toMatch(/^用法：npm run reset/m);
    // A workspace already at its stubs: nothing to do, said in the learner's language.
    const dir = join(WS2, "lesson-4");
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(join(paths.solutions, "lesson-4")).filter((x) => x.endsWith(".ts"))) writeFileSync(join(dir, f), generateStub(readFileSync(join(paths.solutions, "lesson-4", f), "utf8"), "lesson-4", f));
    const nothing = await cli2("tools/loop/reset-cli.ts", ["lesson-4", "--yes"], { COURSE_LANG: "zh" }, "reset");
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stdout).toBe("无需重置：lesson-4 已经是存根了。\n");
    const nothingEn = await cli2("tools/loop/reset-cli.ts", ["lesson-4", "--yes"], {}, "reset");
    expect(nothingEn.stdout).toBe("Nothing to reset: lesson-4 is already the stub.\n");
  });
});
