/**
 * Short, one-line summaries: a line per function for `npm run watch`, and a cell per lesson for the
 * progress table of `npm run grade`.
 */
import chalk from "chalk";
import { namedMistake, type FunctionSummary, type FunctionVerdict } from "../../grader/engine/summary.js";
import type { LessonRecord } from "./progress.js";
import { displayWidth, padDisplay, say, zh } from "../../grader/i18n.js";
import { zhMessage } from "../../grader/messages-zh.js";

const MARK: Record<FunctionVerdict, string> = {
  passed: chalk.green("✓"),
  failed: chalk.red("✗"),
  error: chalk.red("!"),
  timeout: chalk.red("⏱"),
  "not-implemented": chalk.dim("·"),
};

const WORD: Record<FunctionVerdict, string> = {
  passed: "passed",
  failed: "failed",
  error: "threw an error",
  timeout: "timed out",
  "not-implemented": "not implemented",
};

/** WORD in Chinese (grader/i18n.ts: COURSE_LANG=zh). */
const WORD_ZH: Record<FunctionVerdict, string> = {
  passed: "通过",
  failed: "未通过",
  error: "抛出异常",
  timeout: "超时",
  "not-implemented": "尚未实现",
};

/** Drops ANSI colour codes, to measure what a terminal shows. */
function visibleLength(s: string): number {
  return s.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** Cuts a plain-text tail so that `head + tail` fits in `width` columns. */
function fitTail(head: string, tail: string, width: number): string {
  if (zh()) return fitTailWide(head, tail, width);
  const room = width - visibleLength(head);
  if (tail.length <= room) return tail;
  return room > 1 ? `${tail.slice(0, room - 1)}…` : "";
}

/** fitTail counting terminal columns (a CJK character takes two). */
function fitTailWide(head: string, tail: string, width: number): string {
  const room = width - displayWidth(head);
  if (displayWidth(tail) <= room) return tail;
  if (room <= 1) return "";
  let out = "";
  for (const c of tail) {
    if (displayWidth(out + c) > room - 1) break;
    out += c;
  }
  return `${out}…`;
}

/**
 * One line per function: mark, name, verdict, cases passed, and for a function that does not pass
 * its first problem (the known mistake when the grader recognised one), cut to `width` columns.
 */
export function functionLines(summaries: readonly FunctionSummary[], width: number): string[] {
  const nameWidth = Math.max(8, ...summaries.map((s) => s.exercise.length));
  return summaries.map((s) => {
    const head = zh()
      ? `${MARK[s.verdict] ?? chalk.red("?")} ${s.exercise.padEnd(nameWidth)}  ${padDisplay(WORD_ZH[s.verdict] ?? String(s.verdict), 15)} ${chalk.dim(`${s.passed}/${s.total}`.padStart(5))}`
      : `${MARK[s.verdict] ?? chalk.red("?")} ${s.exercise.padEnd(nameWidth)}  ${(WORD[s.verdict] ?? String(s.verdict)).padEnd(15)} ${chalk.dim(`${s.passed}/${s.total}`.padStart(5))}`;
    if (s.verdict === "passed" || s.verdict === "not-implemented") return head;
    const bad = s.results.find((r) => r.status !== "passed" && r.status !== "not-implemented") ?? s.results.find((r) => r.status !== "passed");
    const mistake = namedMistake(s.results)?.mistake;
    const why = mistake ? say(`known mistake: ${mistake}`, `已知错误：${mistake}`) : zh() ? `${bad?.case ?? ""}：${zhMessage(bad?.message ?? "")}` : `${bad?.case ?? ""}: ${bad?.message ?? ""}`;
    const tail = fitTail(`${head}   `, why.replace(/\s+/g, " "), width);
    return tail ? `${head}   ${mistake ? chalk.yellow(tail) : chalk.dim(tail)}` : head;
  });
}

/** The progress table's cell for a lesson with graded exercises. */
export function progressCell(record: LessonRecord | undefined): string {
  if (!record) return chalk.dim(say("not graded yet", "尚未评分"));
  if (record.fatal) return chalk.red(say(`could not grade: ${record.fatal}`, `无法评分：${zhMessage(record.fatal)}`));
  // Records come from a file a person can edit: read them defensively (progress.ts validates them too).
  const fns = Object.values(record.functions ?? {}).filter((f) => f !== null && typeof f === "object");
  if (fns.length === 0) return chalk.dim(say("not graded yet", "尚未评分"));
  const passed = fns.filter((f) => f.verdict === "passed").length;
  if (passed === fns.length) return chalk.green(say(`✓ ${passed}/${fns.length} functions`, `✓ ${passed}/${fns.length} 个函数`));
  if (fns.every((f) => f.verdict === "not-implemented")) return chalk.dim(say(`not started (0/${fns.length})`, `尚未开始（0/${fns.length}）`));
  return chalk.yellow(say(`${passed}/${fns.length} functions`, `${passed}/${fns.length} 个函数`));
}
