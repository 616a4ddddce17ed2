/**
 * `--feedback`: one markdown report a learner, each lesson's report exactly as `npm run grade`
 * words it (grader/report.ts: the first two failing cases of each function), without colour, and
 * what the learner's code printed in a block of its own. Everything a learner's code or folder
 * decides (what it printed, its exception messages, the folder's name) is shown with control
 * characters made visible, so that a report opened in a terminal or an editor shows what is there.
 */
import chalk from "chalk";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { summarise } from "../../grader/engine/summary.js";
import { visibleControl } from "../../grader/engine/messages.js";
import { formatLessonReport, formatPrinted } from "../../grader/report.js";
import type { LearnerGrades } from "./book.js";

/**
 * `text` with every control character that could move a terminal's cursor, erase, hide or recolour
 * what is shown, ring a bell or reorder text (C0 and C1 controls, DEL, zero-width and bidirectional
 * marks) written as a visible escape (`\x1b`, `\u{202e}`); newlines and tabs stay as they are, and a
 * Windows line end (CR LF) becomes a plain newline.
 */
export function safeText(text: string): string {
  return visibleControl(text.replace(/\r\n/g, "\n"));
}

/** A fenced block that no backtick run inside `text` can close early; its text is made safe (safeText). */
function fenced(raw: string): string {
  const text = safeText(raw);
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text.replace(/\s+$/, "")}\n${fence}`;
}

/** `f` with chalk's colours off, so reports are plain text. */
function plain<T>(f: () => T): T {
  const level = chalk.level;
  chalk.level = 0;
  try {
    return f();
  } finally {
    chalk.level = level;
  }
}

/** The markdown feedback of one learner. */
export function learnerFeedback({ learner, lessons }: LearnerGrades, gradedAt: Date): string {
  const parts = [`# Feedback for ${safeText(learner.name).replace(/[\n\t]/g, " ")}`, "", `Graded ${gradedAt.toISOString().slice(0, 16).replace("T", " ")} UTC; your submission was read as ${safeText(learner.layout).replace(/[\n\t]/g, " ")}.`];
  for (const l of lessons) {
    const title = findLesson(l.lesson)?.title ?? l.lesson;
    const where = learner.prefix ? `${learner.prefix}/${l.lesson}` : l.lesson;
    parts.push("", `## ${l.lesson} · ${title}`, "");
    if (l.problem) {
      parts.push(fenced(l.problem.message));
      continue;
    }
    const summaries = summarise(l.results);
    const passed = summaries.filter((s) => s.verdict === "passed").length;
    parts.push(`${passed}/${summaries.length} functions pass.`, "");
    const report = plain(() => formatLessonReport(`${l.lesson} · ${title}  (${where})`, summaries, { verbose: false, verboseCommand: `npm run grade -- ${l.lesson} --verbose` }));
    parts.push(fenced(report));
    const printed = plain(() => formatPrinted(l.printed));
    if (printed) parts.push("", "What your code printed while it was graded:", "", fenced(printed));
  }
  return `${parts.join("\n")}\n`;
}

/** A learner's name as a file name. */
export function feedbackFileName(name: string): string {
  return `${name.replace(/[^\w.-]/g, "_").replace(/^\.+/, "_")}.md`;
}

/** Writes feedback/<learner>.md for every learner under `outDir`; returns the folder. */
export function writeFeedback(book: readonly LearnerGrades[], outDir: string, gradedAt: Date): string {
  const dir = join(outDir, "feedback");
  mkdirSync(dir, { recursive: true });
  const used = new Set<string>();
  for (const g of book) {
    let file = feedbackFileName(g.learner.name);
    for (let i = 2; used.has(file); i++) file = feedbackFileName(`${g.learner.name}-${i}`);
    used.add(file);
    writeFileSync(join(dir, file), learnerFeedback(g, gradedAt));
  }
  return dir;
}
