/**
 * The gradebook as data: one row a learner and function (status, cases passed/total, the named
 * mistake, the reason), written as gradebook.csv (csv-stringify: quoting of commas, quotes and line
 * breaks done by a maintained library) and gradebook.json, and summed up for the terminal.
 */
import chalk from "chalk";
import { stringify } from "csv-stringify/sync";
import { lessonFunctionNames } from "../../grader/functions.js";
import { namedMistake, summarise, type FunctionSummary } from "../../grader/engine/summary.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { functionPoints, functionScore, type Assignment } from "../classroom/assignment.js";
import { isHiddenCase } from "../../grader/engine/hidden.js";
import { functionKind, functionLocation, notRun, type Kind } from "./kinds.js";
import type { LessonGrade } from "./jobs.js";
import type { Learner } from "./submissions.js";

export interface LearnerGrades {
  learner: Learner;
  lessons: LessonGrade[];
}

export type RowStatus = FunctionSummary["verdict"] | "not-graded";

export interface Row {
  learner: string;
  lesson: string;
  function: string;
  status: RowStatus;
  passed?: number;
  total?: number;
  mistake?: string;
  reason: string;
  /** The outcome in an instructor's words (kinds.ts): syntax error, refused import, missing file, … */
  kind: Kind;
  /** `file:line` of the first problem, when known. */
  location?: string;
  /** Hidden cases passed and graded (both 0 without --secret's hidden cases). */
  hiddenPassed: number;
  hiddenTotal: number;
  /** What the function is worth (the assignment's points) and what it scored (before any late rule). */
  points: number;
  score: number;
}

/** Longest reason kept in a row; the JSON's case results keep everything. */
const REASON_LIMIT = 400;

/** One line of plain text: no terminal escapes or control characters, lines joined, length capped. */
export function oneLine(text: string): string {
  const plain = text
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" · ")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
  return plain.length > REASON_LIMIT ? `${plain.slice(0, REASON_LIMIT - 1)}…` : plain;
}

/** Why a function did not pass, from its first case that did not. */
function reasonOf(s: FunctionSummary): string {
  if (s.verdict === "passed") return "";
  if (s.verdict === "not-implemented") return "still throws NotImplementedError (not started)";
  const bad = s.results.filter((r) => r.status !== "passed");
  const first = bad[0];
  if (first.loadError) return oneLine(first.message ?? "could not be loaded");
  const msgOf = (r: CaseResult) => (r.status === "not-implemented" ? "still throws NotImplementedError" : (r.message ?? r.status));
  if (s.verdict === "timeout") {
    const stuck = bad.find((r) => r.status === "timeout") ?? first;
    const skipped = notRun(s);
    return oneLine(`${stuck.case}: ${stuck.message ?? "timed out"} (${skipped} not run${bad.length - skipped - 1 > 0 ? `, ${bad.length - skipped - 1} other${bad.length - skipped - 1 === 1 ? "" : "s"} did not pass` : ""}; ${s.passed} of ${s.total} cases pass)`);
  }
  const count = ` (${bad.length} of ${s.total} cases fail)`;
  // A missing file or an export under another name says the same for every case, with no numbers: say it once.
  if (bad.length > 1 && bad.every((r) => msgOf(r) === msgOf(first) && !r.details?.length)) return oneLine(`${msgOf(first)}${count}`);
  const numbers = first.details?.[0] ? ` — ${first.details[0]}` : "";
  return oneLine(`${first.case}: ${msgOf(first)}${numbers}${count}`);
}

/** The scoring used without an assignment: every graded lesson 10 points, the share of cases passed, no deadline. */
export const NO_ASSIGNMENT: Assignment = { name: "gradebook", lessons: [], points: {}, credit: "share" };

/** The rows of one learner's lesson, scored by `assignment` (points before any late rule). */
export function lessonRows(learner: string, grade: LessonGrade, assignment: Assignment = NO_ASSIGNMENT): Row[] {
  const names = lessonFunctionNames(grade.lesson);
  const points = functionPoints(assignment, grade.lesson, names);
  if (grade.problem) {
    const kind: Kind = grade.problem.status === "timeout" ? "timeout" : "not graded";
    return (names.length > 0 ? names : ["(every function)"]).map((fn) => ({ learner, lesson: grade.lesson, function: fn, status: grade.problem!.status, kind, reason: oneLine(grade.problem!.message), hiddenPassed: 0, hiddenTotal: 0, points: points[fn] ?? 0, score: 0 }));
  }
  return summarise(grade.results).map((s) => {
    const hidden = s.results.filter((r) => isHiddenCase(r.case));
    const fnPoints = points[s.exercise] ?? 0;
    return {
      learner,
      lesson: grade.lesson,
      function: s.exercise,
      status: s.verdict,
      passed: s.passed,
      total: s.total,
      mistake: namedMistake(s.results)?.mistake,
      reason: reasonOf(s),
      kind: functionKind(s),
      location: functionLocation(s),
      hiddenPassed: hidden.filter((r) => r.status === "passed").length,
      hiddenTotal: hidden.length,
      points: fnPoints,
      score: round(functionScore(assignment, fnPoints, s.passed, s.total)),
    };
  });
}

/** Scores to the hundredth (what a gradebook shows). */
export function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Every row of the gradebook, learners in order, then lessons, then functions. */
export function allRows(book: readonly LearnerGrades[], assignment: Assignment = NO_ASSIGNMENT): Row[] {
  return book.flatMap((g) => g.lessons.flatMap((l) => lessonRows(g.learner.name, l, assignment)));
}

/** A cell a spreadsheet would take for a formula (=, +, -, @, tab, CR first) is kept as text. */
function cell(v: string | number | undefined): string | number {
  if (v === undefined) return "";
  if (typeof v === "number") return v;
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** gradebook.csv's columns, in order ("cases" is passed/total in one cell). */
export const CSV_COLUMNS = ["learner", "lesson", "function", "status", "passed", "total", "cases", "mistake", "reason", "kind", "location", "hidden", "points", "score"] as const;

/**
 * gradebook.csv: a header, then one record a row, every text cell safe to open in a spreadsheet.
 * Without the header (`header: false`): records to append to a file that has one.
 */
export function toCsv(rows: readonly Row[], { header = true }: { header?: boolean } = {}): string {
  const records = rows.map((r) =>
    [r.learner, r.lesson, r.function, r.status, r.passed, r.total, r.total === undefined ? undefined : `${r.passed}/${r.total}`, r.mistake, r.reason, r.kind, r.location, r.hiddenTotal > 0 ? `${r.hiddenPassed}/${r.hiddenTotal}` : undefined, r.points, r.score].map(cell),
  );
  return stringify(records, { header, columns: [...CSV_COLUMNS] });
}

export interface BookMeta {
  folder: string;
  lessons: string[];
  caseTimeoutS: number;
  wallS: number;
  jobs: number;
  ms: number;
  /** Where the learners' code ran: OS namespaces, or none (graded with --trusted), in words. */
  sandbox: string;
  /** The scoring: the assignment (or the default: 10 points a lesson, the share of cases passed). */
  assignment?: unknown;
  hiddenCases?: string;
  /** Learner-lessons taken from the cache. */
  cached?: number;
  /** Each learner's totals (scores.ts). */
  totals?: unknown;
  /** Learners whose files of a lesson are identical (similarity.ts). */
  identical?: unknown;
}

/** gradebook.json: the run's settings, the rows, and each learner's lessons with every case result. */
export function toJson(book: readonly LearnerGrades[], rows: readonly Row[], meta: BookMeta): string {
  const learners = book.map(({ learner, lessons }) => ({
    name: learner.name,
    layout: learner.layout,
    source: learner.source,
    submittedAt: learner.submittedAt?.toISOString(),
    commit: learner.commit,
    lessons: lessons.map((l) => ({
      lesson: l.lesson,
      ms: l.ms,
      cached: l.cached === true,
      backend: l.backend,
      problem: l.problem,
      printed: l.printed,
      functions: l.problem ? [] : summarise(l.results).map((s) => ({ function: s.exercise, status: s.verdict, passed: s.passed, total: s.total, mistake: namedMistake(s.results), cases: s.results })),
    })),
  }));
  return `${JSON.stringify({ generatedAt: new Date().toISOString(), ...meta, rows, learners }, null, 2)}\n`;
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${Math.round((100 * n) / d)}%`);

/** The terminal summary: each learner's functions passed, pass rate per function, commonest named mistakes. */
export function formatSummary(rows: readonly Row[], learners: readonly string[]): string {
  const out: string[] = [chalk.bold("learners")];
  const nameWidth = Math.max(8, ...learners.map((l) => l.length));
  for (const l of learners) {
    const mine = rows.filter((r) => r.learner === l);
    const passed = mine.filter((r) => r.status === "passed").length;
    const others = [...new Set(mine.filter((r) => r.status !== "passed").map((r) => r.status))].join(", ");
    out.push(`  ${oneLine(l).padEnd(nameWidth)}  ${`${passed}/${mine.length}`.padStart(7)} functions pass${others ? chalk.dim(`  (others: ${others})`) : ""}`);
  }
  out.push("", chalk.bold("pass rate per function"));
  const fns = [...new Map(rows.map((r) => [`${r.lesson} ${r.function}`, r])).keys()];
  const fnWidth = Math.max(...fns.map((f) => f.length));
  for (const f of fns) {
    const mine = rows.filter((r) => `${r.lesson} ${r.function}` === f);
    const passed = mine.filter((r) => r.status === "passed").length;
    out.push(`  ${f.padEnd(fnWidth)}  ${`${passed}/${mine.length}`.padStart(7)}  ${pct(passed, mine.length).padStart(4)}`);
  }
  const mistakes = new Map<string, number>();
  for (const r of rows) if (r.mistake) mistakes.set(`${r.lesson} ${r.function}: ${r.mistake}`, (mistakes.get(`${r.lesson} ${r.function}: ${r.mistake}`) ?? 0) + 1);
  const ranked = [...mistakes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
  out.push("", chalk.bold("commonest named mistakes"));
  if (ranked.length === 0) out.push(chalk.dim("  none named"));
  for (const [m, n] of ranked) out.push(`  ${String(n).padStart(3)} learner${n === 1 ? " " : "s"}  ${m}`);
  const statuses = new Map<string, number>();
  for (const r of rows) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  out.push("", chalk.dim(`statuses: ${[...statuses.entries()].map(([s, n]) => `${s} ${n}`).join(", ")}`));
  return out.join("\n");
}
