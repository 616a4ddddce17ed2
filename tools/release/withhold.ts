/**
 * The answer modules of a student edition (grader/engine/answers.ts declares them with `@answers`
 * tags and marks their answer regions): which of them belong to lessons the edition does not
 * publish, how each is shipped, and a check that an edition holds no region it should not.
 *
 * - **withheld**: every answer region of an unpublished lesson is replaced by its `// EDITION:`
 *   code (e.g. lib/model/fast-attention.ts's fast path becomes the resolver's attention: the
 *   learner's when it passes, else "finish lesson 11 first") or by a throw saying "finish lesson N
 *   first". Nothing of the answer is left in the file.
 * - **readable**: the module has no region for that lesson (the runtime needs it as it is, e.g. the
 *   tokenizer every run loads), so the edition ships it readable, and the release warns.
 */
import { readFileSync, realpathSync } from "node:fs";
import { relative } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { scanAnswerModules, type AnswerTag } from "../../grader/engine/answers.js";

const BEGIN = /^(\s*)\/\/ BEGIN ANSWER (\S+)\s*$/;
const END = /^\s*\/\/ END ANSWER\s*$/;
const EDITION = /^(\s*)\/\/ EDITION: ?(.*)$/;

export class AnswerMarkerError extends Error {
  constructor(file: string, line: number, what: string) {
    super(`${file}:${line}: ${what}`);
    this.name = "AnswerMarkerError";
  }
}

/** One `// BEGIN ANSWER` … `// END ANSWER` region: its lesson and 1-based line numbers. */
export interface AnswerRegion {
  lesson: string;
  begin: number;
  end: number;
}

const lessonId = (s: string) => findLesson(s)?.id ?? s;

/** The answer regions of a module's text, in order; throws an AnswerMarkerError on a malformed one. */
export function answerRegions(text: string, file = "module"): AnswerRegion[] {
  const lines = text.split("\n");
  const out: AnswerRegion[] = [];
  let open: { lesson: string; begin: number } | undefined;
  lines.forEach((line, i) => {
    const b = BEGIN.exec(line);
    if (b) {
      if (open) throw new AnswerMarkerError(file, i + 1, "nested BEGIN ANSWER");
      if (b[1] === "") throw new AnswerMarkerError(file, i + 1, "BEGIN ANSWER at the top level: put it inside a function body (a top-level throw would stop the module loading)");
      open = { lesson: lessonId(b[2]), begin: i + 1 };
    } else if (END.test(line)) {
      if (!open) throw new AnswerMarkerError(file, i + 1, "END ANSWER without a BEGIN ANSWER");
      out.push({ ...open, end: i + 1 });
      open = undefined;
    } else if (!open && EDITION.test(line)) throw new AnswerMarkerError(file, i + 1, "an EDITION line outside an answer region");
  });
  if (open) throw new AnswerMarkerError(file, open.begin, "BEGIN ANSWER without an END ANSWER");
  return out;
}

/** The error a withheld region throws (no import needed: it is named like lib/resolver.ts's). */
function throwLine(indent: string, lesson: string, file: string, functions: readonly string[]): string {
  const n = findLesson(lesson)?.number ?? lesson;
  const what = functions.length > 0 ? `${lesson}'s ${functions.join(", ")}` : `${lesson}'s answer`;
  const message = `${file} computes ${what}, which this edition leaves out until ${lesson}'s solution is published: finish lesson ${n} first (npm run grade ${lesson}); the course runs your own function through lib/resolver.ts`;
  return `${indent}throw Object.assign(new Error(${JSON.stringify(message)}), { name: "LessonNotFinishedError" });`;
}

/**
 * `text` with every answer region of a lesson in `lessons` replaced (see the module comment).
 * `file` (relative to the root) and `tags` make the thrown message name the module and functions.
 */
export function withholdAnswers(text: string, lessons: readonly string[], file = "this module", tags: readonly AnswerTag[] = []): string {
  const ids = new Set(lessons.map(lessonId));
  const regions = answerRegions(text, file).filter((r) => ids.has(r.lesson));
  if (regions.length === 0) return text;
  const lines = text.split("\n");
  const out: string[] = [];
  let at = 0;
  for (const r of regions) {
    out.push(...lines.slice(at, r.begin - 1));
    const indent = BEGIN.exec(lines[r.begin - 1])![1];
    const edition = lines
      .slice(r.begin, r.end - 1)
      .map((l) => EDITION.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}${m[2]}`);
    out.push(...(edition.length > 0 ? edition : [throwLine(indent, r.lesson, file, tags.find((t) => t.lesson === r.lesson)?.functions ?? [])]));
    at = r.end;
  }
  out.push(...lines.slice(at));
  return out.join("\n");
}

/** One answer module of an unpublished lesson, as an edition ships it. */
export interface EditionAnswerModule {
  /** Relative to the root, "lib/model/fast-attention.ts". */
  file: string;
  lesson: string;
  functions: string[];
  /** "withheld": its regions are replaced; "readable": it ships as it is (the release warns). */
  shipped: "withheld" | "readable";
}

/** The plan for an edition publishing `published`: every answer module of another lesson, and the text to write for the withheld ones. */
export interface AnswerPlan {
  modules: EditionAnswerModule[];
  /** File (relative) → the text the edition gets: the repository's with the unpublished lessons' regions replaced. */
  texts: Map<string, string>;
}

/**
 * What an edition of `root` publishing `published` does with each answer module of an unpublished
 * lesson, for the files in `shipped` (relative paths; default every tagged file).
 */
export function planAnswerModules(root: string, published: readonly string[], shipped?: ReadonlySet<string>): AnswerPlan {
  const pub = new Set(published.map(lessonId));
  const modules: EditionAnswerModule[] = [];
  const texts = new Map<string, string>();
  for (const [abs, tags] of scanAnswerModules(root)) {
    const file = relativeTo(root, abs);
    if (shipped && !shipped.has(file)) continue;
    const unpublished = tags.filter((t) => !pub.has(t.lesson));
    if (unpublished.length === 0) continue;
    const text = readFileSync(abs, "utf8");
    const regions = answerRegions(text, file);
    const replaced = withholdAnswers(text, unpublished.map((t) => t.lesson), file, tags);
    if (replaced !== text) texts.set(file, replaced);
    for (const t of unpublished) {
      modules.push({ file, lesson: t.lesson, functions: [...t.functions], shipped: regions.some((r) => r.lesson === t.lesson) ? "withheld" : "readable" });
    }
  }
  modules.sort((a, b) => a.file.localeCompare(b.file) || a.lesson.localeCompare(b.lesson));
  return { modules, texts };
}

/** `abs` (a real path, as the scan gives it) relative to `root`, with forward slashes. */
function relativeTo(root: string, abs: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    /* a root that does not exist has no tagged files either */
  }
  return relative(real, abs).split("\\").join("/");
}

/** The tagged modules of `root`, relative to it (forward slashes), sorted. */
export function taggedFiles(root: string): string[] {
  return [...scanAnswerModules(root).keys()].map((abs) => relativeTo(root, abs)).sort();
}

/** One line a person reads about a module of the plan. */
export function describeAnswerModule(m: EditionAnswerModule): string {
  const n = findLesson(m.lesson)?.number ?? m.lesson;
  return m.shipped === "withheld"
    ? `${m.file} (${m.lesson}'s ${m.functions.join(", ")}): withheld; the edition runs the learner's function through lib/resolver.ts or says "finish lesson ${n} first"`
    : `${m.file} computes ${m.lesson}'s ${m.functions.join(", ")} and ships READABLE while ${m.lesson} is unpublished: the runtime needs it as it is (no answer region to withhold)`;
}

/**
 * Problems of an edition folder: an answer region of an unpublished lesson still in a file (the
 * release should have replaced it). Readable modules are not problems (see `planAnswerModules`).
 */
export function answerRegionLeaks(dir: string, published: readonly string[]): string[] {
  const pub = new Set(published.map(lessonId));
  const problems: string[] = [];
  for (const [abs] of scanAnswerModules(dir)) {
    const file = relativeTo(dir, abs);
    let regions: AnswerRegion[];
    try {
      regions = answerRegions(readFileSync(abs, "utf8"), file);
    } catch (err) {
      problems.push(`${file}: ${(err as Error).message}`);
      continue;
    }
    for (const r of regions.filter((x) => !pub.has(x.lesson))) problems.push(`${file}:${r.begin}: ${r.lesson}'s answer region is in the edition, but ${r.lesson} is not published`);
  }
  return problems;
}
