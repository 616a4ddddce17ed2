/**
 * Short, one-line summaries: a line per function for `npm run watch`, and a cell per lesson for the
 * progress table of `npm run grade`.
 */
import chalk from "chalk";
import { namedMistake, type FunctionSummary, type FunctionVerdict } from "../../grader/engine/summary.js";
import type { LessonRecord } from "./progress.js";

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

/** Drops ANSI colour codes, to measure what a terminal shows. */
function visibleLength(s: string): number {
  return s.replace(/\x1b\[[0-9;]*m/g, "").length;
}

/** Cuts a plain-text tail so that `head + tail` fits in `width` columns. */
function fitTail(head: string, tail: string, width: number): string {
  const room = width - visibleLength(head);
  if (tail.length <= room) return tail;
  return room > 1 ? `${tail.slice(0, room - 1)}…` : "";
}

/**
 * One line per function: mark, name, verdict, cases passed, and for a function that does not pass
 * its first problem (the known mistake when the grader recognised one), cut to `width` columns.
 */
export function functionLines(summaries: readonly FunctionSummary[], width: number): string[] {
  const nameWidth = Math.max(8, ...summaries.map((s) => s.exercise.length));
  return summaries.map((s) => {
    const head = `${MARK[s.verdict] ?? chalk.red("?")} ${s.exercise.padEnd(nameWidth)}  ${(WORD[s.verdict] ?? String(s.verdict)).padEnd(15)} ${chalk.dim(`${s.passed}/${s.total}`.padStart(5))}`;
    if (s.verdict === "passed" || s.verdict === "not-implemented") return head;
    const bad = s.results.find((r) => r.status !== "passed" && r.status !== "not-implemented") ?? s.results.find((r) => r.status !== "passed");
    const mistake = namedMistake(s.results)?.mistake;
    const why = mistake ? `known mistake: ${mistake}` : `${bad?.case ?? ""}: ${bad?.message ?? ""}`;
    const tail = fitTail(`${head}   `, why.replace(/\s+/g, " "), width);
    return tail ? `${head}   ${mistake ? chalk.yellow(tail) : chalk.dim(tail)}` : head;
  });
}

/** The progress table's cell for a lesson with graded exercises. */
export function progressCell(record: LessonRecord | undefined): string {
  if (!record) return chalk.dim("not graded yet");
  if (record.fatal) return chalk.red(`could not grade: ${record.fatal}`);
  // Records come from a file a person can edit: read them defensively (progress.ts validates them too).
  const fns = Object.values(record.functions ?? {}).filter((f) => f !== null && typeof f === "object");
  if (fns.length === 0) return chalk.dim("not graded yet");
  const passed = fns.filter((f) => f.verdict === "passed").length;
  if (passed === fns.length) return chalk.green(`✓ ${passed}/${fns.length} functions`);
  if (fns.every((f) => f.verdict === "not-implemented")) return chalk.dim(`not started (0/${fns.length})`);
  return chalk.yellow(`${passed}/${fns.length} functions`);
}
