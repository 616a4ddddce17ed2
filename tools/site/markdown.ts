/**
 * Markdown to HTML for the course site: markdown-it, with `$…$` and `$$…$$` rendered to KaTeX on
 * the server, fenced code highlighted by highlight.js, ids on section headings (collected for the
 * table of contents), relative links handed to the caller to rewrite, and source citations such
 * as `trainer/train_ppo.py:139-150` @ d65ef2c linked to the pinned commit.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import shell from "highlight.js/lib/languages/shell";
import typescript from "highlight.js/lib/languages/typescript";
import katex from "katex";
import MarkdownIt from "markdown-it";
import type { StateBlock, StateInline } from "markdown-it";
import Token from "markdown-it/lib/token.mjs";
import { escapeHtml } from "./html.js";
import { citationUrl } from "./sources.js";

for (const [name, lang] of Object.entries({ bash, diff, javascript, json, plaintext, python, shell, typescript })) hljs.registerLanguage(name, lang);
hljs.registerAliases(["ts"], { languageName: "typescript" });
hljs.registerAliases(["js"], { languageName: "javascript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["sh", "console"], { languageName: "bash" });
hljs.registerAliases(["text", "txt"], { languageName: "plaintext" });

export interface Heading {
  level: number;
  id: string;
  /** The heading's inline HTML (math and code rendered). */
  html: string;
}

/** What a relative link or image source becomes. */
export type LinkTarget = { href: string } | { plain: true } | { problem: string };

export interface RenderEnv {
  /** Named in problem reports: "lessons/23-ppo-training-flow.md". */
  source: string;
  /** Broken math, links that lead nowhere: filled in while rendering. */
  problems: string[];
  /** Section headings (levels 2 and 3), filled in while rendering. */
  headings: Heading[];
  /** The text of the first level-1 heading, filled in while rendering. */
  title?: string;
  /** Decides where a relative link (not http:, not #…) points. */
  resolve: (href: string, kind: "link" | "image") => LinkTarget;
  /** The page's language: "zh" for a lesson of lessons/zh/ (collapsed sections found by their Chinese headings). */
  lang?: "en" | "zh";
  /**
   * Ids for the headings below the title, in order: a Chinese lesson takes its English twin's, so
   * `#the-idea` means the same section in both (the in-step checker keeps the headings paired).
   */
  headingIds?: readonly string[];
  /** When given, filled in while rendering with the id of every heading below the title, in order. */
  ids?: string[];
}

function renderMath(tex: string, displayMode: boolean, env: RenderEnv): string {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true, strict: "ignore" });
  } catch (err) {
    env.problems.push(`${env.source}: math \`${tex.trim().slice(0, 60)}\` does not render: ${err instanceof Error ? err.message : String(err)}`);
    return katex.renderToString(tex, { displayMode, throwOnError: false, strict: "ignore" });
  }
}

/** `$…$` (inline) and `$$…$$` (display) inside a paragraph. */
function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== "$") return false;
  const display = src[start + 1] === "$";
  const delim = display ? "$$" : "$";
  const from = start + delim.length;
  let end = src.indexOf(delim, from);
  while (end > 0 && src[end - 1] === "\\") end = src.indexOf(delim, end + 1);
  if (end < 0 || end === from) return false;
  const tex = src.slice(from, end);
  // "$5 and $6" is money, not math: inline math opens on a non-space and does not close before a digit.
  if (!display && (/\s/.test(tex[0]) || /\d/.test(src[end + 1] ?? ""))) return false;
  if (!silent) {
    const token = state.push(display ? "math_display" : "math_inline", "", 0);
    token.content = tex;
  }
  state.pos = end + delim.length;
  return true;
}

/** A `$$` block: `$$ … $$` on one line, or opening and closing `$$` lines around the formula. */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineText = (n: number) => state.src.slice(state.bMarks[n] + state.tShift[n], state.eMarks[n]);
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const first = lineText(startLine);
  if (!first.startsWith("$$")) return false;
  const rest = first.slice(2);
  let tex: string;
  let last = startLine;
  if (rest.includes("$$")) {
    if (!rest.trimEnd().endsWith("$$") || rest.indexOf("$$") !== rest.trimEnd().length - 2) return false;
    tex = rest.trimEnd().slice(0, -2);
  } else {
    const lines = [rest];
    for (last = startLine + 1; last < endLine; last++) {
      const line = lineText(last);
      if (line.trimEnd().endsWith("$$")) {
        lines.push(line.trimEnd().slice(0, -2));
        break;
      }
      lines.push(line);
    }
    if (last >= endLine) return false;
    tex = lines.join("\n");
  }
  if (silent) return true;
  const token = state.push("math_block", "", 0);
  token.block = true;
  token.content = tex;
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/** Highlighted code as a <pre> block; unknown languages are shown as plain text. */
export function codeBlock(code: string, lang: string): string {
  const language = hljs.getLanguage(lang) ? lang : "plaintext";
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return `<pre class="hljs"><code class="language-${escapeHtml(language)}">${html}</code></pre>`;
}

export function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false, highlight: codeBlock });
  md.inline.ruler.after("escape", "math_inline", mathInline);
  md.block.ruler.before("fence", "math_block", mathBlock, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.math_inline = (tokens, i, _o, env: RenderEnv) => renderMath(tokens[i].content, false, env);
  md.renderer.rules.math_display = (tokens, i, _o, env: RenderEnv) => renderMath(tokens[i].content, true, env);
  md.renderer.rules.math_block = (tokens, i, _o, env: RenderEnv) => `<div class="math-display">${renderMath(tokens[i].content, true, env)}</div>\n`;
  // A line wrapped between two Chinese characters joins without the space a browser would show.
  md.renderer.rules.softbreak = (tokens, i, opts) => (betweenCjk(tokens, i) ? "" : opts.breaks ? "<br>\n" : "\n");
  // A relative link to a repository file the site does not publish renders as plain text.
  md.renderer.rules.link_open = (tk, i, opts, _env, self) => (tk[i].meta?.plain ? `<span class="repo-path" title="a file in the course repository">` : self.renderToken(tk, i, opts));
  md.renderer.rules.link_close = (tk, i, opts, _env, self) => (tk[i].meta?.plain ? "</span>" : self.renderToken(tk, i, opts));
  return md;
}

/** Han, kana, CJK punctuation and full-width forms: characters written without spaces between them. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/** Whether the soft line break `tokens[i]` has a CJK character right before it and right after it. */
function betweenCjk(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1];
  const after = tokens[i + 1];
  return before?.type === "text" && after?.type === "text" && CJK.test(before.content.slice(-1)) && CJK.test(after.content.charAt(0));
}

/** The plain text of an inline token's children (for heading ids). */
function plainText(children: readonly Token[]): string {
  return children.map((c) => (c.type === "text" || c.type === "code_inline" || c.type.startsWith("math") ? c.content : "")).join("");
}

function slug(text: string, used: Set<string>, unicode = false): string {
  const base =
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(unicode ? /[^\p{L}\p{N}\s_-]/gu : /[^\w\s-]/g, "")
      .trim()
      .replace(/[\s_]+/g, "-") || "section";
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

function isRelative(href: string): boolean {
  return href !== "" && !href.startsWith("#") && !href.startsWith("//") && !/^[a-z][a-z0-9+.-]*:/i.test(href);
}

/** Rewrites relative links and images, and marks links that should render as plain text. */
function rewriteLinks(children: Token[], env: RenderEnv): void {
  for (let i = 0; i < children.length; i++) {
    const t = children[i];
    const attr = t.type === "link_open" ? "href" : t.type === "image" ? "src" : undefined;
    const value = attr ? t.attrGet(attr) : null;
    if (!attr || value === null || !isRelative(value)) continue;
    const target = env.resolve(value, t.type === "image" ? "image" : "link");
    if ("href" in target) t.attrSet(attr, target.href);
    else if ("problem" in target) env.problems.push(`${env.source}: ${target.problem}`);
    else if (t.type === "link_open") {
      const close = children.findIndex((c, j) => j > i && c.type === "link_close");
      t.meta = { plain: true };
      children[close].meta = { plain: true };
    }
  }
}

/** Wraps `path/file.py:12-34` followed by "@ <commit>" in a link to those lines at that commit. */
function linkCitations(children: Token[]): void {
  let insideLink = false;
  for (let i = 0; i < children.length; i++) {
    const t = children[i];
    if (t.type === "link_open") insideLink = true;
    if (t.type === "link_close") insideLink = false;
    if (insideLink || t.type !== "code_inline") continue;
    const next = children[i + 1];
    const commit = next?.type === "text" ? /^\s*@\s*([0-9a-f]{7,40})/.exec(next.content)?.[1] : undefined;
    const url = commit ? citationUrl(t.content, commit) : undefined;
    if (!url) continue;
    const open = new Token("link_open", "a", 1);
    open.attrs = [["href", url], ["class", "citation"]];
    const close = new Token("link_close", "a", -1);
    children.splice(i, 1, open, t, close);
    i += 2;
  }
}

/** Renders a lesson: HTML plus, in `env`, its headings, title and problems. */
export function renderMarkdown(md: MarkdownIt, text: string, env: RenderEnv): string {
  const tokens = md.parse(text, env);
  for (const t of tokens) {
    if (t.type !== "inline" || !t.children) continue;
    rewriteLinks(t.children, env);
    linkCitations(t.children);
  }
  const used = new Set<string>();
  let n = 0;
  tokens.forEach((t, i) => {
    if (t.type !== "heading_open") return;
    const children = tokens[i + 1].children ?? [];
    if (t.tag === "h1") {
      env.title ??= plainText(children);
      return;
    }
    let id = env.headingIds?.[n++];
    if (id === undefined || used.has(id)) id = slug(plainText(children), used, env.lang === "zh");
    else used.add(id);
    t.attrSet("id", id);
    env.ids?.push(id);
    if (t.tag === "h2" || t.tag === "h3") env.headings.push({ level: Number(t.tag.slice(1)), id, html: md.renderer.renderInline(children, md.options, env) });
  });
  collapseSections(tokens, env.lang ?? "en");
  figures(md, tokens, env);
  return md.renderer.render(tokens, md.options, env);
}

/**
 * A paragraph that is an image alone, or an image and on the next line one italic sentence (the
 * lessons' caption), becomes `<figure>`: the image, then the caption in `<figcaption>` below it
 * (inside a paragraph the caption ran on beside the image, an inline element). The markdown stays
 * plain, so the lesson reads the same on GitHub.
 */
function figures(md: MarkdownIt, tokens: Token[], env: RenderEnv): void {
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i].type !== "paragraph_open" || tokens[i + 1].type !== "inline" || tokens[i + 2].type !== "paragraph_close") continue;
    const children = tokens[i + 1].children ?? [];
    if (children[0]?.type !== "image") continue;
    const rest = children.slice(1);
    let caption: Token[] | undefined;
    if (rest.length === 0) caption = [];
    else if (rest[0].type === "softbreak" && rest[1]?.type === "em_open" && rest[rest.length - 1].type === "em_close" && rest.slice(2, -1).every((t) => t.type !== "em_close")) caption = rest.slice(2, -1);
    if (!caption) continue;
    const image = md.renderer.renderInline([children[0]], md.options, env);
    const figcaption = caption.length > 0 ? `\n<figcaption>${md.renderer.renderInline(caption, md.options, env)}</figcaption>` : "";
    tokens.splice(i, 3, htmlBlock(`<figure>\n${image}${figcaption}\n</figure>\n`));
  }
}

function htmlBlock(content: string): Token {
  const t = new Token("html_block", "", 0);
  t.content = content;
  t.block = true;
  return t;
}

/** The text summary of each collapsed section: the heading stays visible (and in the contents). */
export const COLLAPSED_SECTIONS: ReadonlyArray<{ heading: RegExp; className: string; summary: string; summaryZh: string }> = [
  {
    heading: /^(?:common mistakes\b|常见错误)/i,
    className: "mistakes",
    summary: "Open when stuck: what each mistake looks like in the grader's report",
    summaryZh: "卡住时再展开：每个错误在评分报告里是什么样子",
  },
];
/** The section whose answers are collapsed one by one ("Check yourself", "自测"), and how an answer paragraph starts ("Answer:", "答："). */
export const ANSWERS_SECTION = /^(?:check yourself\b|自测)/i;
export const ANSWER_PREFIX = /^\s*(?:\*\*)?(?:Answer[.:]|答案?[：:])(?:\*\*)?\s*/;
/** A paragraph that opens with "**Answer**" or "**答**" in bold, then the text. */
const ANSWER_BOLD = /^(?:Answer[.:]?|答案?[：:]?)\s*$/;

/**
 * The site shows some lesson sections collapsed: "Common mistakes" as a whole (a learner opens it
 * when stuck), and under "Check yourself" every paragraph that starts with "Answer:" (each answer
 * under its own question); in a Chinese lesson "常见错误", "自测" and "答：". The markdown itself stays plain, so the lesson reads the same on GitHub.
 */
function collapseSections(tokens: Token[], lang: "en" | "zh"): void {
  const h2 = (i: number) => tokens[i].type === "heading_open" && tokens[i].tag === "h2";
  const headingText = (i: number) => plainText(tokens[i + 1].children ?? []).trim();
  for (let i = 0; i < tokens.length; i++) {
    if (!h2(i)) continue;
    const text = headingText(i);
    let end = i + 3;
    while (end < tokens.length && !h2(end)) end++;
    const collapsed = COLLAPSED_SECTIONS.find((c) => c.heading.test(text));
    if (collapsed) {
      tokens.splice(end, 0, htmlBlock("</details>\n"));
      tokens.splice(i + 3, 0, htmlBlock(`<details class="${collapsed.className}"><summary>${escapeHtml(lang === "zh" ? collapsed.summaryZh : collapsed.summary)}</summary>\n`));
      i = end + 1;
    } else if (ANSWERS_SECTION.test(text)) {
      for (let j = i + 3; j < end; j++) {
        const inline = tokens[j + 1];
        if (tokens[j].type !== "paragraph_open" || inline?.type !== "inline" || !inline.children?.length) continue;
        const first = inline.children[0];
        const prefixed = first.type === "text" ? ANSWER_PREFIX.exec(first.content) : null;
        const bold = first.type === "strong_open" && inline.children[1]?.type === "text" && ANSWER_BOLD.test(inline.children[1].content);
        if (!prefixed && !bold) continue;
        if (prefixed) first.content = first.content.slice(prefixed[0].length);
        else {
          inline.children.splice(0, 3);
          if (inline.children[0]?.type === "text") inline.children[0].content = inline.children[0].content.replace(/^[.:：]?\s*/, "");
        }
        tokens[j] = htmlBlock(`<details class="answer"><summary>${lang === "zh" ? "答案" : "Answer"}</summary>\n<p>`);
        tokens[j + 2] = htmlBlock("</p>\n</details>\n");
      }
      i = end - 1;
    }
  }
}
