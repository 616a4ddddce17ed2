/**
 * The Chinese edition of what the learner's commands print (issue 28). When courseLang() is "zh"
 * (COURSE_LANG=zh, or a zh_* locale), the report, the hints and the commands' common messages are
 * Chinese; otherwise every output stays byte for byte what it was. Each module keeps its English
 * strings where they were and picks the Chinese one beside it with `say(en, zh)`.
 *
 * A lesson's own Chinese texts (hints, named mistakes) live in grader/lesson-NN/zh.ts
 * (engine/zh-types.ts). A lesson without one, or a key missing from it, falls back to the English
 * text of that one item; a zh.ts that cannot be loaded is ignored, never a crash.
 *
 * Machine-readable output (`npm run grade -- --json`, the progress file) stays English.
 * No TensorFlow.js here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { courseLang } from "../lib/lang.js";
import { lessonDir, mutantFiles, paths } from "./engine/paths.js";
import { readFrozen } from "./engine/frozen.js";
import type { FunctionHints, LessonHints } from "./engine/hint-types.js";
import type { FunctionSummary } from "./engine/summary.js";
import type { MutantDef } from "./engine/types.js";
import type { LessonZh } from "./engine/zh-types.js";
import { translateMistakes, type MistakeTexts } from "./mistake-text.js";

/** True when the learner's commands speak Chinese now (read afresh on every call). */
export function zh(): boolean {
  return courseLang() === "zh";
}

/** `en`, or `zh` when the commands speak Chinese. */
export function say(en: string, zhText: string): string {
  return zh() ? zhText : en;
}

/** grader/<lesson>/zh.ts: the lesson's Chinese hints and mistakes (absent for a lesson without any). */
export function zhFile(lesson: string): string {
  return join(lessonDir(lesson), "zh.ts");
}

/** The lesson's Chinese texts, or undefined when it has none (or its zh.ts cannot be loaded). */
export async function loadLessonZh(lesson: string): Promise<LessonZh | undefined> {
  const file = zhFile(lesson);
  if (!existsSync(file)) return undefined;
  try {
    const mod = (await import(pathToFileURL(file).href)) as { default?: LessonZh };
    const texts = mod.default;
    if (!texts || typeof texts !== "object") return undefined;
    return { lesson: texts.lesson, hints: isRecord(texts.hints) ? texts.hints : {}, mistakes: isRecord(texts.mistakes) ? texts.mistakes : {} };
  } catch {
    return undefined; // a broken translation must not stop a learner's grading: English instead
  }
}

function isRecord<T>(x: T): x is T & object {
  return x !== null && typeof x === "object";
}

function nonEmpty(x: unknown): x is string {
  return typeof x === "string" && x.trim() !== "";
}

/** The lesson's hints with each tier in Chinese where zh.ts has it, in English where not. */
export function localHints(hints: LessonHints, texts: LessonZh | undefined): LessonHints {
  if (!texts) return hints;
  const functions: Record<string, FunctionHints> = {};
  for (const [name, en] of Object.entries(hints.functions)) {
    const t = isRecord(texts.hints[name]) ? texts.hints[name] : undefined;
    functions[name] = {
      nudge: nonEmpty(t?.nudge) ? t.nudge : en.nudge,
      keyIdea: nonEmpty(t?.keyIdea) ? t.keyIdea : en.keyIdea,
      formula: nonEmpty(t?.formula) ? t.formula : en.formula,
    };
  }
  return { ...hints, functions };
}

/**
 * Exercise → English mistake → Chinese mistake, from the lesson's mutant lists (which give each
 * English text its mutant name) and zh.ts (which gives each name its Chinese text). Empty where
 * either is missing. A student edition ships no mutant lists: its frozen expectations name each
 * mistake's mutant. The site's workspace pages ship this table (tools/site/workspace-build.ts).
 */
export async function chineseMistakes(lesson: string): Promise<MistakeTexts> {
  const table: MistakeTexts = {};
  const texts = await loadLessonZh(lesson);
  if (!texts) return table;
  const add = (exercise: string, name: string, mistake: string) => {
    const text = texts.mistakes[exercise]?.[name];
    if (!nonEmpty(text)) return;
    const byText = (table[exercise] ??= {});
    if (!Object.hasOwn(byText, mistake)) byText[mistake] = text;
  };
  // A student edition ships no mutants: its frozen expectations name each mistake's mutant.
  for (const c of readFrozen(lesson)?.cases ?? []) for (const m of c.mistakes) if (m.name) add(c.plan.exercise, m.name, m.mistake);
  for (const file of mutantFiles(lesson)) {
    let list: MutantDef[] | undefined;
    try {
      list = ((await import(pathToFileURL(file).href)) as { mutants?: MutantDef[] }).mutants;
    } catch {
      continue;
    }
    for (const m of Array.isArray(list) ? list : []) add(m.exercise, m.name, m.mistake);
  }
  return table;
}

/**
 * The summaries with every named mistake in Chinese where the lesson has the text (the same
 * objects, untouched, in English). Each English text maps to one Chinese text, so the counts that
 * decide which mistake is named (summary.ts namedMistake) are the same in both languages.
 */
export async function localiseMistakes<S extends FunctionSummary>(lesson: string, summaries: readonly S[]): Promise<S[]> {
  if (!zh() || !summaries.some((s) => s.results.some((r) => r.mistake !== undefined))) return [...summaries];
  return translateMistakes(summaries, await chineseMistakes(lesson).catch(() => ({})));
}

/** The lesson's explainer as a path to show: lessons/zh/<file> in Chinese where it exists, else lessons/<file>. */
export function lessonFileShown(file: string): string {
  return zh() && existsSync(join(paths.lessons, "zh", file)) ? `lessons/zh/${file}` : `lessons/${file}`;
}

/**
 * A lesson's title to show: in Chinese, its Chinese lesson's own ("PPO 全流程", from the first
 * heading of lessons/zh/<file>, after the dash); else, or without a Chinese lesson, the catalog's.
 */
export function lessonTitle(lesson: { file: string; title: string }): string {
  if (!zh()) return lesson.title;
  const file = join(paths.lessons, "zh", lesson.file);
  if (!existsSync(file)) return lesson.title;
  const heading = /^#\s+(.*)$/m.exec(readFileSync(file, "utf8"))?.[1] ?? "";
  return /[—–-]\s*(.+)$/.exec(heading)?.[1].trim() || lesson.title;
}

/** The labels of the hint tiers (engine/hint-types.ts TIERS) in Chinese. */
export const TIER_LABELS_ZH: Record<keyof FunctionHints, string> = {
  nudge: "点拨",
  keyIdea: "关键思路",
  formula: "公式",
};

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** Columns a terminal gives `s` (CJK and full-width characters take two; ANSI colour codes none). */
export function displayWidth(s: string): number {
  let w = 0;
  for (const c of s.replace(/\x1b\[[0-9;]*m/g, "")) w += WIDE.test(c) ? 2 : 1;
  return w;
}

/** `s` padded with spaces to `width` terminal columns (String.padEnd for text that may be Chinese). */
export function padDisplay(s: string, width: number): string {
  return s + " ".repeat(Math.max(0, width - displayWidth(s)));
}

/** Punctuation that must not start a line (it stays with what is before it). */
const CLOSING = "，。、；：？！）》」』】〉,.;:?!)]}%";

/**
 * Wraps Chinese (or mixed) text to `width` columns, each line starting with `indent`: a line may
 * break at a space or between two CJK characters, never inside a Latin word or formula, and
 * never before closing punctuation.
 */
export function wrapWide(text: string, width: number, indent: string): string {
  const tokens = text.match(/\s+|[\u2e80-\u9fff\uf900-\ufaff\uff00-\uff60\u3000-\u303f]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uff60\u3000-\u303f]+/g) ?? [];
  // Closing punctuation joins the token before it.
  const units: string[] = [];
  for (const t of tokens) {
    if (units.length > 0 && !/^\s/.test(t) && CLOSING.includes(t[0]) && !/^\s+$/.test(units[units.length - 1])) units[units.length - 1] += t;
    else units.push(t);
  }
  const lines: string[] = [];
  let line = "";
  let space = false;
  for (const u of units) {
    if (/^\s+$/.test(u)) {
      space = line !== "";
      continue;
    }
    const piece = space ? ` ${u}` : u;
    if (line && displayWidth(indent) + displayWidth(line) + displayWidth(piece) > width) {
      lines.push(indent + line);
      line = u;
    } else line += piece;
    space = false;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}
