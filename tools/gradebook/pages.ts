/**
 * What goes back to people: the summary CSV an LMS imports (Canvas's gradebook-import layout), the
 * HTML gradebook page (learners × lessons, each cell coloured by its share and linking to the
 * learner's feedback), and the return folder (one folder a learner: feedback.md and feedback.html,
 * with course-relative paths only).
 */
import { stringify } from "csv-stringify/sync";
import MarkdownIt from "markdown-it";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import type { Assignment } from "../classroom/assignment.js";
import { feedbackFileName, learnerFeedback } from "./feedback.js";
import type { LearnerGrades, Row } from "./book.js";
import type { LearnerTotal } from "./scores.js";

/** Canvas's first columns, in its order; the assignment's column follows. */
export const CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"] as const;

export interface RosterEntry {
  Student?: string;
  ID?: string;
  "SIS User ID"?: string;
  "SIS Login ID"?: string;
  Section?: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * `text` with no instructor path left: the course's root, staged copies and bundles
 * (.grader-build/…), the temporary folders of collected submissions, `file://` prefixes.
 */
export function courseRelative(text: string, roots: readonly string[] = []): string {
  let t = text.replace(/file:\/\//g, "");
  for (const r of [...roots, ROOT].filter(Boolean).sort((a, b) => b.length - a.length)) t = t.replace(new RegExp(`${escapeRegExp(r)}/?`, "g"), "");
  t = t.replace(new RegExp(`${escapeRegExp(tmpdir())}/gradebook-[^/\\s]*/(tree/)?`, "g"), "");
  return t.replace(/(?:\.\.\/)*\.grader-build\/[^/\s]+\//g, "");
}

/**
 * The summary CSV in Canvas's gradebook-import layout: Student, ID, SIS User ID, SIS Login ID,
 * Section, then one column for the assignment, named `column` ("a1" makes or matches an assignment
 * by name; "a1 (12345)" matches Canvas's assignment 12345), and a "Points Possible" row first.
 * The roster (Canvas's own export, keyed by learner folder name) fills the identity columns.
 */
export function canvasCsv(totals: readonly LearnerTotal[], column: string, roster: ReadonlyMap<string, RosterEntry>): string {
  const possible = totals[0]?.points ?? 0;
  const records: Array<Array<string | number>> = [["Points Possible", "", "", "", "", possible]];
  for (const t of totals) {
    const r = roster.get(t.learner) ?? {};
    records.push([r.Student ?? t.learner, r.ID ?? "", r["SIS User ID"] ?? "", r["SIS Login ID"] ?? t.learner, r.Section ?? "", t.score]);
  }
  return stringify(records, { header: true, columns: [...CANVAS_COLUMNS, column] });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Red through yellow to green by share (0–1). */
function colour(share: number): string {
  return `hsl(${Math.round(120 * Math.max(0, Math.min(1, share)))}, 70%, 82%)`;
}

/** The HTML gradebook page: learners × lessons, the totals, each cell linking to the learner's feedback. */
export function gradebookHtml(totals: readonly LearnerTotal[], lessons: readonly string[], assignment: Assignment, feedbackHref: (learner: string) => string, generatedAt: Date): string {
  const head = lessons.map((l) => `<th>${escapeHtml(l)}</th>`).join("");
  const body = totals
    .map((t) => {
      const cells = lessons
        .map((l) => {
          const c = t.lessons[l] ?? { points: 0, score: 0 };
          const share = c.points > 0 ? c.score / c.points : 0;
          return `<td style="background:${colour(share)}"><a href="${escapeHtml(feedbackHref(t.learner))}#${escapeHtml(l)}">${c.score} / ${c.points}</a></td>`;
        })
        .join("");
      const late = t.daysLate > 0 ? `${t.daysLate} day(s) late, ×${t.lateFactor}` : "on time";
      const share = t.points > 0 ? t.score / t.points : 0;
      return `<tr><th scope="row"><a href="${escapeHtml(feedbackHref(t.learner))}">${escapeHtml(t.learner)}</a></th>${cells}<td>${escapeHtml(late)}</td><td style="background:${colour(share)}"><strong>${t.score}</strong> / ${t.points}</td></tr>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Gradebook ${escapeHtml(assignment.name)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.3rem .6rem;text-align:right}th[scope=row]{text-align:left}a{color:inherit}</style>
</head><body>
<h1>Gradebook: ${escapeHtml(assignment.name)}</h1>
<p>Generated ${escapeHtml(generatedAt.toISOString().slice(0, 16).replace("T", " "))} UTC; credit: ${escapeHtml(assignment.credit)}${assignment.deadline ? `; deadline ${escapeHtml(assignment.deadline.toISOString())}` : ""}. Each cell links to the learner's feedback.</p>
<table>
<thead><tr><th>learner</th>${head}<th>late</th><th>total</th></tr></thead>
<tbody>
${body}
</tbody></table>
</body></html>
`;
}

const md = new MarkdownIt({ html: false, linkify: false });

/** A feedback page as HTML (markdown-it, raw HTML off: a learner's text stays text). */
export function feedbackHtml(markdown: string, title: string): string {
  // Headings "## lesson-N · …" get the lesson's id as their anchor (the gradebook page links to them).
  const html = md.render(markdown).replace(/<h2>(lesson-\d+) /g, '<h2 id="$1">$1 ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}</style>
</head><body>
${html}
</body></html>
`;
}

/** One feedback's score block, in markdown. */
function scoreBlock(t: LearnerTotal | undefined, rows: readonly Row[]): string {
  if (!t) return "";
  const lines = ["", "| lesson | function | result | score |", "|---|---|---|---|"];
  for (const r of rows) lines.push(`| ${r.lesson} | ${r.function} | ${r.kind}${r.total !== undefined ? ` (${r.passed}/${r.total} cases${r.hiddenTotal > 0 ? `, ${r.hiddenPassed}/${r.hiddenTotal} hidden` : ""})` : ""} | ${r.score} / ${r.points} |`);
  const late = t.daysLate > 0 ? ` Handed in ${t.daysLate} day(s) late: ×${t.lateFactor}.` : "";
  lines.push("", `**Total: ${t.score} / ${t.points}**${late !== "" ? ` (before the late rule: ${t.raw}).${late}` : ""}`);
  return lines.join("\n");
}

/**
 * Writes the return folder `<out>/return/<learner>/` (feedback.md and feedback.html, to hand back
 * as they are) and `<out>/feedback/<learner>.md`; returns each learner's folder name.
 */
export function writeReturns(book: readonly LearnerGrades[], rows: readonly Row[], totals: readonly LearnerTotal[], outDir: string, gradedAt: Date, roots: readonly string[]): Map<string, string> {
  const feedbackDir = join(outDir, "feedback");
  const returnDir = join(outDir, "return");
  mkdirSync(feedbackDir, { recursive: true });
  mkdirSync(returnDir, { recursive: true });
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const g of book) {
    let file = feedbackFileName(g.learner.name).replace(/\.md$/, "");
    for (let i = 2; used.has(file); i++) file = feedbackFileName(`${g.learner.name}-${i}`).replace(/\.md$/, "");
    used.add(file);
    names.set(g.learner.name, file);
    const total = totals.find((t) => t.learner === g.learner.name);
    const text = courseRelative(learnerFeedback(g, gradedAt) + scoreBlock(total, rows.filter((r) => r.learner === g.learner.name)), roots) + "\n";
    const html = feedbackHtml(text, `Feedback for ${g.learner.name}`);
    writeFileSync(join(feedbackDir, `${file}.md`), text);
    mkdirSync(join(returnDir, file), { recursive: true });
    writeFileSync(join(returnDir, file, "feedback.md"), text);
    writeFileSync(join(returnDir, file, "feedback.html"), html);
  }
  return names;
}
