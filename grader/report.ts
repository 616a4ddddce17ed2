/**
 * Human-readable grading reports: one line a function, then for each failing function the cases
 * that failed, each with the numbers a learner needs to find the bug.
 */
import chalk from "chalk";
import { fmt } from "./engine/format.js";
import type { FunctionSummary } from "./engine/summary.js";
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
    const named = new Set<string>();
    for (const r of shown) {
      lines.push(...formatCase(r, r.mistake !== undefined && !named.has(r.mistake)));
      if (r.mistake) named.add(r.mistake);
    }
    if (shown.length < bad.length) lines.push(chalk.dim(`      … and ${bad.length - shown.length} more (run with --verbose to see them)`));
  }
  return lines.join("\n");
}

/** A failing case; `nameMistake` is false when an earlier case of the function already named it. */
function formatCase(r: CaseResult, nameMistake: boolean): string[] {
  const out = [`      ${chalk.red(r.status === "timeout" ? "⏱" : "✗")} ${r.case} ${chalk.dim(`[${r.kind}]`)}`];
  const msg = r.status === "not-implemented" ? "still throws NotImplementedError" : (r.message ?? r.status);
  out.push(`          ${msg}`);
  if (r.location) out.push(`          at ${chalk.cyan(r.location)}`);
  for (const d of r.details ?? []) out.push(chalk.dim(`          ${d}`));
  if (r.mistake && nameMistake) out.push(chalk.yellow(`          hint: this is exactly the output of a known mistake: ${r.mistake}`));
  else if (r.mistake) out.push(chalk.yellow("          hint: the same known mistake as above"));
  return out;
}

export function formatTotals(summaries: readonly FunctionSummary[], ms: number, backend: string): string {
  const passed = summaries.filter((s) => s.verdict === "passed").length;
  const colour = passed === summaries.length ? chalk.green : chalk.yellow;
  return colour(`${passed}/${summaries.length} functions pass`) + chalk.dim(` · ${backend} backend · ${fmt(ms / 1000)} s`);
}
