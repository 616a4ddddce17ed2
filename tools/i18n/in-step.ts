/**
 * Keeps a lesson's Chinese version (lessons/zh/NN-slug.md) in step with the English one
 * (lessons/NN-slug.md): the parts a translation must not change — heading levels, fenced code,
 * display and inline math, numbers of three or more significant digits, source citations and
 * figures — are extracted from both and compared. Pure: text in, lists out; the markdown is read
 * with the site's own parser (tools/site/markdown.ts), so the checker sees what the site renders.
 */
import type Token from "markdown-it/lib/token.mjs";
import { createMarkdown } from "../site/markdown.js";

/** What a translation must keep, for one section (one heading to the next). */
export interface SectionSkeleton {
  /** 0 for the text before the first heading, else the heading's level (1–6). */
  level: number;
  /** The heading's plain text ("" for section 0); named in differences. */
  heading: string;
  /** Fenced (and indented) code blocks: info string, newline, then the code, exactly. */
  code: string[];
  /** Display math (`$$…$$`, as a block or inside a paragraph): the TeX exactly. */
  displayMath: string[];
  /** Inline math (`$…$`): the TeX exactly, in document order. */
  inlineMath: string[];
  /** Numbers in prose (tables, headings, lists included; not code, math, links' targets or citations) with ≥3 significant digits, as written ("1,536"). */
  numbers: string[];
  /** Source citations `path:lines` (whitespace collapsed), with " @ <commit>" when the text gives one. */
  citations: string[];
  /** Figures (markdown images): the basename of each image's target, in order. */
  figures: string[];
}

/**
 * A path with a slash or a file extension, then `:` and a line or a list of lines/ranges
 * ("139-150", "74-76, 102-104"). Not part of a URL or a longer word (the look-behind), e.g.
 * `trainer/train_ppo.py:139-150`, `actor.py:434, 533`, `README.md:1308`.
 */
const CITATION = /(?<![\w./:-])((?:[\w.-]+\/)+[\w.-]+|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]*):(\d+(?:\s*[-–]\s*\d+)?(?:,\s*\d+(?:\s*[-–]\s*\d+)?)*)/g;
/** A code span that only names more lines of the file cited just before it: "214", ":90-110". */
const MORE_LINES = /^:?(\d+(?:\s*[-–]\s*\d+)?(?:,\s*\d+(?:\s*[-–]\s*\d+)?)*)$/;
/** The commit a citation is pinned to, right after it: " @ d65ef2c" (the closing backtick is already gone). */
const COMMIT = /^\s*@\s*([0-9a-f]{7,40})\b/;
/** A decimal number, thousands grouped with commas or not, not glued to a word or another number. */
const NUMBER = /(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\d]|,\d{3}(?!\d))/g;

const md = createMarkdown();

/** Significant digits of a number as written: "0.125" → 3, "1,536" → 4, "100" → 3, "0.05" → 1. */
export function significantDigits(number: string): number {
  return number.replace(/[^\d]/g, "").replace(/^0+/, "").length;
}

function normaliseCitation(path: string, lines: string, commit: string | undefined): string {
  const text = `${path}:${lines.replace(/\s+/g, " ").replace(/\s*([-–])\s*/g, "$1")}`;
  return commit ? `${text} @ ${commit}` : text;
}

/** Citations found in `text` (a commit right after one is taken with it); `text` with them blanked out. */
function citationsIn(text: string): { found: string[]; rest: string } {
  const found: string[] = [];
  const rest = text.replace(CITATION, (whole: string, path: string, lines: string, offset: number) => {
    const commit = COMMIT.exec(text.slice(offset + whole.length));
    found.push(normaliseCitation(path, lines, commit?.[1]));
    return " ";
  });
  return { found, rest: rest.replace(/(?<=\s)@\s*[0-9a-f]{7,40}\b/g, " ") };
}

function plainText(children: readonly Token[]): string {
  return children
    .map((c) => (c.type === "text" || c.type === "code_inline" ? c.content : c.type.startsWith("math") ? `$${c.content}$` : c.type === "softbreak" ? " " : ""))
    .join("")
    .trim();
}

/** A code span's place in the prose while it is scanned. */
const SPAN = /\u0001(\d+)\u0002(\s*@\s*([0-9a-f]{7,40})\b)?/g;

/** Fills `section` from one inline token's children (a paragraph, heading, list item or table cell). */
function scanInline(children: readonly Token[], section: SectionSkeleton): void {
  let prose = "";
  const spans: string[] = [];
  for (const t of children) {
    if (t.type === "math_inline") {
      section.inlineMath.push(t.content);
      prose += " ";
    } else if (t.type === "math_display") {
      section.displayMath.push(t.content);
      prose += " ";
    } else if (t.type === "image") {
      const src = t.attrGet("src") ?? "";
      section.figures.push(src.split(/[?#]/)[0].split("/").pop() ?? src);
      prose += " ";
    } else if (t.type === "code_inline") {
      prose += `\u0001${spans.length}\u0002`;
      spans.push(t.content);
    } else if (t.type === "text") prose += t.content;
    else if (t.type === "softbreak" || t.type === "hardbreak") prose += "\n";
    else prose += " ";
  }
  // A cited code span takes the " @ <commit>" after its closing backtick (which may wrap a line). A
  // span of bare lines a word or two after a cited span ("`model/model_minimind.py:201` and `214`
  // @ d65ef2c", "`:90-110`") cites more lines of the same file.
  let lastPath: string | undefined;
  let lastEnd = 0;
  const source = prose;
  prose = prose.replace(SPAN, (whole: string, index: string, pinned: string | undefined, commit: string | undefined, offset: number) => {
    const content = spans[Number(index)].trim();
    const near = source.slice(lastEnd, offset).trim().length <= 6;
    lastEnd = offset + whole.length;
    const more = lastPath && near ? MORE_LINES.exec(content) : null;
    if (more && lastPath) {
      section.citations.push(normaliseCitation(lastPath, more[1], commit));
      return " ";
    }
    const cited = [...content.matchAll(CITATION)];
    lastPath = cited.length > 0 ? cited[cited.length - 1][1] : undefined;
    // Only a citation that ends the span is pinned by the commit after it.
    const pinnedLast = cited.length > 0 && (cited[cited.length - 1].index ?? 0) + cited[cited.length - 1][0].length === content.length;
    cited.forEach((m, k) => section.citations.push(normaliseCitation(m[1], m[2], pinnedLast && k === cited.length - 1 ? commit : undefined)));
    return pinned && !pinnedLast ? ` ${pinned}` : " ";
  });
  const { found, rest } = citationsIn(prose);
  section.citations.push(...found);
  for (const m of rest.matchAll(NUMBER)) if (significantDigits(m[0]) >= 3) section.numbers.push(m[0]);
}

/**
 * The skeleton of a lesson: one entry per section, in order. Section 0 is the text before the
 * first heading (level 0, heading ""); every heading (any level) starts the next section.
 */
export function lessonSkeleton(markdown: string): SectionSkeleton[] {
  const empty = (level: number, heading: string): SectionSkeleton => ({ level, heading, code: [], displayMath: [], inlineMath: [], numbers: [], citations: [], figures: [] });
  const sections = [empty(0, "")];
  const tokens = md.parse(markdown, {});
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "heading_open") {
      const inline = tokens[i + 1];
      const section = empty(Number(t.tag.slice(1)), plainText(inline.children ?? []));
      sections.push(section);
      scanInline(inline.children ?? [], section);
      i += 2;
      continue;
    }
    const section = sections[sections.length - 1];
    if (t.type === "fence" || t.type === "code_block") section.code.push(`${t.info.trim()}\n${t.content}`);
    else if (t.type === "math_block") section.displayMath.push(t.content);
    else if (t.type === "inline") scanInline(t.children ?? [], section);
  }
  return sections;
}

/** The target of every markdown image in `markdown`, as written ("../figures/lesson-23-clipped-surrogate.svg"), in order. */
export function imageTargets(markdown: string): string[] {
  return md
    .parse(markdown, {})
    .flatMap((t) => t.children ?? [])
    .filter((c) => c.type === "image")
    .map((c) => c.attrGet("src") ?? "");
}

function describe(section: SectionSkeleton): string {
  return section.level === 0 ? "before the first heading" : `section "${section.heading}"`;
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const short = line.trim().length > 60 ? `${line.trim().slice(0, 57)}...` : line.trim();
  return `\`${short}\``;
}

/** `text` on one line, cut to 80 characters, for a message. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

interface Located {
  value: string;
  where: string;
}

/** Longest common subsequence pairing of two lists; the unpaired items of each, in order. */
function unpaired(a: readonly string[], b: readonly string[]): { onlyA: number[]; onlyB: number[] } {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const onlyA: number[] = [];
  const onlyB: number[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) onlyA.push(i++);
    else onlyB.push(j++);
  }
  return { onlyA, onlyB };
}

/** Differences between two ordered lists that must be identical (code, display math, figures). */
function compareInOrder(kind: string, en: Located[], zh: Located[], show: (v: string) => string): string[] {
  const out: string[] = [];
  const { onlyA, onlyB } = unpaired(
    en.map((x) => x.value),
    zh.map((x) => x.value),
  );
  for (const i of onlyA) out.push(`${en[i].where}: ${kind} ${show(en[i].value)} (English ${kind} ${i + 1} of ${en.length}) is missing or changed in Chinese`);
  for (const j of onlyB) out.push(`${zh[j].where}: Chinese ${kind} ${j + 1} of ${zh.length}, ${show(zh[j].value)}, is not in English at this place`);
  return out;
}

function counts(list: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of list) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Differences between two lists that must hold the same items, in any order (a multiset). */
function compareMultiset(where: string, kind: string, en: readonly string[], zh: readonly string[]): string[] {
  const a = counts(en);
  const b = counts(zh);
  const out: string[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key) ?? 0;
    const y = b.get(key) ?? 0;
    if (x !== y) out.push(`${where}: ${kind} ${kind === "inline math" ? `$${oneLine(key)}$` : key} appears ${x}× in English, ${y}× in Chinese`);
  }
  return out;
}

/**
 * The differences between an English lesson and its Chinese version, in plain English, each
 * naming the section by its English heading. Rules: the heading levels form the same sequence;
 * fenced code blocks, display math and figures (by basename) are identical and in the same order;
 * within each section, inline math, numbers (≥3 significant digits) and citations are the same
 * multiset (order may move within the section). When the heading counts differ, sections cannot
 * be paired, so those three are compared over the whole lesson instead. [] means in step.
 */
export function compareLessons(en: string, zh: string): string[] {
  const a = lessonSkeleton(en);
  const b = lessonSkeleton(zh);
  const out: string[] = [];
  const levels = (s: SectionSkeleton[]) => s.slice(1).map((x) => `h${x.level}`);
  const sameHeadings = levels(a).join() === levels(b).join();
  if (!sameHeadings) {
    if (a.length === b.length) {
      for (let i = 1; i < a.length; i++) if (a[i].level !== b[i].level) out.push(`${describe(a[i])}: heading ${i} is level ${a[i].level} in English, level ${b[i].level} in Chinese ("${b[i].heading}")`);
    } else {
      out.push(`headings: English has ${a.length - 1}, Chinese has ${b.length - 1}`);
      const { onlyA, onlyB } = unpaired(levels(a), levels(b));
      for (const i of onlyA) out.push(`${describe(a[i + 1])}: English heading ${i + 1} (level ${a[i + 1].level}) has no Chinese counterpart at that level and place`);
      for (const j of onlyB) out.push(`Chinese heading ${j + 1} "${b[j + 1].heading}" (level ${b[j + 1].level}) has no English counterpart at that level and place`);
    }
  }
  // Chinese items are located by the English heading of the section with the same index.
  const where = (s: SectionSkeleton[], i: number) => describe(a[i] ?? s[i]);
  const flat = (s: SectionSkeleton[], key: "code" | "displayMath" | "figures") => s.flatMap((x, i) => x[key].map((value) => ({ value, where: where(s, i) })));
  out.push(...compareInOrder("code block", flat(a, "code"), flat(b, "code"), (v) => firstLine(v.slice(v.indexOf("\n") + 1))));
  out.push(...compareInOrder("display math", flat(a, "displayMath"), flat(b, "displayMath"), (v) => firstLine(v)));
  out.push(...compareInOrder("figure", flat(a, "figures"), flat(b, "figures"), (v) => v));
  const paired = a.length === b.length;
  const pairs: Array<[string, SectionSkeleton[], SectionSkeleton[]]> = paired ? a.map((s, i) => [describe(s), [s], [b[i]]]) : [["whole lesson (headings differ)", a, b]];
  for (const [label, x, y] of pairs) {
    out.push(...compareMultiset(label, "inline math", x.flatMap((s) => s.inlineMath), y.flatMap((s) => s.inlineMath)));
    out.push(...compareMultiset(label, "number", x.flatMap((s) => s.numbers), y.flatMap((s) => s.numbers)));
    out.push(...compareMultiset(label, "citation", x.flatMap((s) => s.citations), y.flatMap((s) => s.citations)));
  }
  return out;
}
