/**
 * Human-readable grading reports: one line a function, then for each failing function the cases
 * that failed, each with the numbers a learner needs to find the bug.
 */
import chalk from "chalk";
import { fmt } from "./engine/format.js";
import { consistentMistake, type FunctionSummary } from "./engine/summary.js";
import type { CaseResult } from "./engine/types.js";

const MARK: Record<FunctionSummary["verdict"], string> = {
  passed: chalk.green("✓"),
  failed: chalk.red("✗"),
  error: chalk.red("!"),
  timeout: chalk.red("⏱"),
  "not-implemented": chalk.dim("·"),
};

const VERDICT_TEXT: Record<FunctionSummary["verdict"], string> = {
  passed: "passed",
  failed: "failed",
  error: "threw an error",
  timeout: "timed out",
  "not-implemented": "not implemented",
};

export interface ReportOptions {
  /** Show every failing case instead of the first two of each function. */
  verbose: boolean;
  /** The command that shows every failing case, e.g. "npm run grade -- lesson-23 --verbose". */
  verboseCommand?: string;
}

export function formatLessonReport(title: string, summaries: readonly FunctionSummary[], opts: ReportOptions): string {
  const lines = [chalk.bold(title), ""];
  const width = Math.max(...summaries.map((s) => s.exercise.length), 8);
  for (const s of summaries) {
    const counts = chalk.dim(`${s.passed}/${s.total} cases`);
    lines.push(`  ${MARK[s.verdict]} ${s.exercise.padEnd(width)}  ${VERDICT_TEXT[s.verdict].padEnd(15)} ${counts}`);
    if (s.verdict === "not-implemented") continue;
    const bad = s.results.filter((r) => r.status !== "passed");
    const shown = opts.verbose ? bad : bad.slice(0, 2);
    for (const r of shown) lines.push(...formatCase(r));
    if (shown.length < bad.length) {
      const how = opts.verboseCommand ? `\`${opts.verboseCommand}\`` : "--verbose";
      lines.push(chalk.dim(`      … and ${bad.length - shown.length} more (${how} shows them all)`));
    }
    const mistake = consistentMistake(s.results);
    if (mistake) lines.push(chalk.yellow(`      hint: on every failing case your output equals a known mistake: ${mistake}`));
  }
  return lines.join("\n");
}

function formatCase(r: CaseResult): string[] {
  const out = [`      ${chalk.red(r.status === "timeout" ? "⏱" : "✗")} ${r.case} ${chalk.dim(`[${r.kind}]`)}`];
  const msg = r.status === "not-implemented" ? "still throws NotImplementedError" : (r.message ?? r.status);
  out.push(`          ${msg}`);
  if (r.location) out.push(`          at ${chalk.cyan(r.location)}`);
  for (const d of r.details ?? []) out.push(chalk.dim(`          ${d}`));
  return out;
}

export function formatTotals(summaries: readonly FunctionSummary[], ms: number, backend: string): string {
  const passed = summaries.filter((s) => s.verdict === "passed").length;
  const colour = passed === summaries.length ? chalk.green : chalk.yellow;
  return colour(`${passed}/${summaries.length} functions pass`) + chalk.dim(` · ${backend} backend · ${fmt(ms / 1000)} s`);
}
