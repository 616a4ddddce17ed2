/**
 * The learner's commands in Chinese (issue 28): every graded lesson's grader/lesson-NN/zh.ts names
 * exactly the exercises of its hints.ts and every (exercise, mutant) of its mutant lists, each
 * text non-empty and Chinese; courseLang's rules; the lookup's fallbacks; and real runs of the
 * grade and hint commands, in Chinese with COURSE_LANG=zh and unchanged English without it.
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
import { generateStub } from "../lib/stubs.js";

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
  const env: NodeJS.ProcessEnv = { ...process.env, COURSE_EXERCISES_DIR: relative(ROOT, WS), COURSE_PROGRESS_FILE: progress, FORCE_COLOR: "0" };
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
