/**
 * Human-readable grading reports: one line a function, then for each failing function the cases
 * that failed, each with the numbers a learner needs to find the bug.
 */
import chalk from "chalk";
import { fmt } from "./engine/format.js";
import { namedMistake, type FunctionSummary } from "./engine/summary.js";
import type { CaseResult } from "./engine/types.js";
import type { TypeCheck } from "./typecheck.js";
import { lessonFileShown, padDisplay, say, zh } from "./i18n.js";
import { localiseCase, zhMessage } from "./messages-zh.js";

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

/** VERDICT_TEXT in Chinese (i18n.ts: COURSE_LANG=zh). */
const VERDICT_TEXT_ZH: Record<FunctionSummary["verdict"], string> = {
  passed: "通过",
  failed: "未通过",
  error: "抛出异常",
  timeout: "超时",
  "not-implemented": "尚未实现",
};

export interface ReportOptions {
  /** Show every failing case instead of the first two of each function. */
  verbose: boolean;
  /** The command that shows every failing case, e.g. "npm run grade -- lesson-23 --verbose". */
  verboseCommand?: string;
  /** Function → the lesson's other functions its code calls (functions.ts lessonCalls). */
  calls?: ReadonlyMap<string, readonly string[]>;
}

export function formatLessonReport(title: string, summaries: readonly FunctionSummary[], opts: ReportOptions): string {
  const lines = [chalk.bold(title), ""];
  // A file that could not be loaded fails every case of every function in it the same way: say it once.
  const loadErrors = [...new Set(summaries.flatMap((s) => s.results.filter((r) => r.loadError).map((r) => r.message ?? "")))];
  for (const message of loadErrors) {
    const [first, ...rest] = zhMessage(message).split("\n");
    lines.push(`  ${chalk.red("!")} ${first}`, ...rest.map((l) => chalk.dim(`    ${l}`)), "");
  }
  const width = Math.max(...summaries.map((s) => s.exercise.length), 8);
  for (const s of summaries) {
    const unloaded = s.results.every((r) => r.loadError);
    if (zh()) lines.push(`  ${MARK[s.verdict]} ${s.exercise.padEnd(width)}  ${padDisplay(unloaded ? "未能加载" : VERDICT_TEXT_ZH[s.verdict], 15)} ${chalk.dim(`${s.passed}/${s.total} 个用例`)}`);
    else lines.push(`  ${MARK[s.verdict]} ${s.exercise.padEnd(width)}  ${(unloaded ? "not loaded" : VERDICT_TEXT[s.verdict]).padEnd(15)} ${chalk.dim(`${s.passed}/${s.total} cases`)}`);
    if (s.verdict === "not-implemented" || unloaded) continue;
    const bad = s.results.filter((r) => r.status !== "passed" && !r.loadError);
    const shown = opts.verbose ? bad : bad.slice(0, 2);
    const uses = (opts.calls?.get(s.exercise) ?? []).filter((g) => summaries.some((o) => o.exercise === g && o.verdict !== "passed"));
    // A wrong upstream function explains a wrong downstream one: name it before the cases.
    for (const g of uses) lines.push(chalk.yellow(say(`      note: ${s.exercise} calls ${g}, which does not pass either: get ${g} passing first`, `      注意：${s.exercise} 调用了 ${g}，而 ${g} 也没有通过：先让 ${g} 通过`)));
    for (const r of shown) lines.push(...formatCase(r, opts.verbose));
    if (shown.length < bad.length) {
      const how = opts.verboseCommand ? `\`${opts.verboseCommand}\`` : "--verbose";
      lines.push(chalk.dim(say(`      … and ${bad.length - shown.length} more (${how} shows them all)`, `      …… 还有 ${bad.length - shown.length} 个（${how} 会全部列出）`)));
    }
    const named = namedMistake(s.results);
    if (named) lines.push(chalk.yellow(say(`      hint: ${mistakeWording(named)}`, `      提示：${mistakeWording(named)}`)));
  }
  return lines.join("\n");
}

/** "on 7 of 8 failing cases your output equals a known mistake: …", with crashed cases counted apart. */
export function mistakeWording(n: NonNullable<ReturnType<typeof namedMistake>>): string {
  if (zh()) {
    const where = n.matched === n.failed ? (n.failed === 1 ? "在唯一失败的用例上" : `在全部 ${n.failed} 个失败用例上`) : `在 ${n.failed} 个失败用例中的 ${n.matched} 个上`;
    const crashed = n.crashed > 0 ? `（另有 ${n.crashed} 个用例在产生输出之前就抛出异常或超时）` : "";
    return `${where}，你的输出与一个已知错误一致：${n.mistake}${crashed}`;
  }
  const where = n.matched === n.failed ? (n.failed === 1 ? "on the one case that failed" : `on all ${n.failed} failing cases`) : `on ${n.matched} of ${n.failed} failing cases`;
  const crashed = n.crashed > 0 ? ` (${n.crashed} other case${n.crashed === 1 ? "" : "s"} threw or timed out before producing an output)` : "";
  return `${where} your output equals a known mistake: ${n.mistake}${crashed}`;
}

/** The type check's warnings, beside the verdict: they never fail a case on their own. */
export function formatTypeCheck(check: TypeCheck): string {
  if (zh()) return formatTypeCheckZh(check);
  if (check.state === "running") return chalk.dim("  (the type check of your files is still running; its warnings show with the next grade)");
  if (check.warnings.length === 0) return "";
  const shown = check.warnings.slice(0, 5).map((w) => `      ${chalk.cyan(w.location)}  ${w.message}`);
  const more = check.warnings.length > shown.length ? [chalk.dim(`      … and ${check.warnings.length - shown.length} more (\`npm run typecheck\` lists them all)`)] : [];
  return [chalk.yellow(`\n  type check: ${check.warnings.length} warning(s). The grade does not depend on them, but a type error is often the bug:`), ...shown, ...more].join("\n");
}

/** formatTypeCheck in Chinese. */
function formatTypeCheckZh(check: TypeCheck): string {
  if (check.state === "running") return chalk.dim("  （对你的文件的类型检查仍在进行；它的警告会在下次评分时显示）");
  if (check.warnings.length === 0) return "";
  const shown = check.warnings.slice(0, 5).map((w) => `      ${chalk.cyan(w.location)}  ${w.message}`);
  const more = check.warnings.length > shown.length ? [chalk.dim(`      …… 还有 ${check.warnings.length - shown.length} 条（\`npm run typecheck\` 会全部列出）`)] : [];
  return [chalk.yellow(`\n  类型检查：${check.warnings.length} 条警告。评分结果不取决于它们，但类型错误往往就是 bug 所在：`), ...shown, ...more].join("\n");
}

/** What the learner's code printed while it was graded, in a block of its own. */
export function formatPrinted(printed: string): string {
  if (printed.trim() === "") return "";
  const body = printed.replace(/\s+$/, "").split("\n").map((l) => chalk.dim("  │ ") + l);
  if (zh()) return [chalk.dim("── 评分时你的代码打印的内容 ──"), ...body, chalk.dim("── 你的代码的输出到此结束 ──")].join("\n");
  return [chalk.dim("── printed by your code while it was graded ──"), ...body, chalk.dim("── end of your code's output ──")].join("\n");
}

function formatCase(result: CaseResult, verbose: boolean): string[] {
  // The case's own message (r.message, r.details) comes from the engine in English; in Chinese it
  // is translated here, where it is shown (messages-zh.ts). In English `r` is `result` itself.
  const r = localiseCase(result);
  const out = [`      ${chalk.red(r.status === "timeout" ? "⏱" : "✗")} ${r.case} ${chalk.dim(`[${r.kind}]`)}`];
  const msg = r.status === "not-implemented" ? say("still throws NotImplementedError", "仍然抛出 NotImplementedError") : (r.message ?? r.status);
  out.push(`          ${msg}`);
  if (r.location) out.push(say(`          at ${chalk.cyan(r.location)}`, `          位置 ${chalk.cyan(r.location)}`));
  for (const d of r.details ?? []) out.push(chalk.dim(`          ${d}`));
  // The inputs, on request: with them a failing fixture case can be reproduced by hand.
  if (verbose && r.inputs) out.push(chalk.dim(say("          inputs:", "          输入：")), ...r.inputs.map((l) => chalk.dim(`            ${l}`)));
  return out;
}

export function formatTotals(summaries: readonly FunctionSummary[], ms: number, backend: string): string {
  const passed = summaries.filter((s) => s.verdict === "passed").length;
  const colour = passed === summaries.length ? chalk.green : chalk.yellow;
  if (zh()) return colour(`${passed}/${summaries.length} 个函数通过`) + chalk.dim(` · ${backend} 后端 · ${fmt(ms / 1000)} s`);
  return colour(`${passed}/${summaries.length} functions pass`) + chalk.dim(` · ${backend} backend · ${fmt(ms / 1000)} s`);
}

/** What a whole lesson's report needs beyond its grading. */
export interface LessonReportContext extends ReportOptions {
  /** The heading: "lesson-23 · PPO, end to end  (exercises/lesson-23)". */
  title: string;
  /** How long the grading took, for the totals line. */
  ms: number;
  /** The type check's warnings, printed between the functions and the totals. */
  typeCheck?: TypeCheck;
  /** The line that says what to do next when something failed (undefined: none). */
  next?: string;
}

/**
 * A lesson's whole report, as `npm run grade lesson-NN` prints it and the grade project's course
 * reporter too: what the code printed (marked, first), a line a function with its failing cases,
 * the type check, the totals, the sandbox note and the next step.
 */
export function formatGradedLesson(run: { printed: string; backend: string; sandboxNote?: string }, summaries: readonly FunctionSummary[], ctx: LessonReportContext): string {
  const out: string[] = [];
  const printed = formatPrinted(run.printed);
  if (printed) out.push(`${printed}\n`);
  out.push(formatLessonReport(ctx.title, summaries, ctx));
  if (ctx.typeCheck) out.push(formatTypeCheck(ctx.typeCheck));
  out.push("", formatTotals(summaries, ctx.ms, run.backend));
  if (run.sandboxNote) out.push(chalk.dim(say(`note: ${run.sandboxNote}`, `注意：${zhMessage(run.sandboxNote)}`)));
  if (ctx.next && summaries.some((s) => s.verdict !== "passed")) out.push(chalk.dim(ctx.next));
  return out.join("\n");
}

/**
 * "Read lessons/23-….md, then run `npm run grade lesson-23` again (…hint…)", repeating the
 * workspace variables so that the suggested commands grade the same folder again.
 */
export function nextStepLine(lesson: { id: string; file: string }, env: NodeJS.ProcessEnv = process.env): string {
  const vars = ["COURSE_EXERCISES_DIR", "COURSE_PROGRESS_FILE"].filter((k) => env[k]).map((k) => `${k}=${env[k]} `).join("");
  if (zh()) return `先读 ${lessonFileShown(lesson.file)}，然后再运行一次 \`${vars}npm run grade ${lesson.id}\`（\`${vars}npm run hint ${lesson.id}\` 给出一条提示）。`;
  return `Read lessons/${lesson.file}, then run \`${vars}npm run grade ${lesson.id}\` again (\`${vars}npm run hint ${lesson.id}\` for a hint).`;
}
