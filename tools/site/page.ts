/**
 * The HTML around the rendered markdown: one layout for every page (header with the language
 * switch, optional table of contents, previous/next links), and the site's stylesheet. No
 * JavaScript, but on the workspace pages (tools/site/workspace.ts), which add their own script and
 * stylesheet (`head`) and take the whole width (`wide`). English pages sit at the site's root,
 * Chinese ones in zh/.
 */
import { escapeHtml } from "./html.js";
import type { Heading } from "./markdown.js";

export const COURSE_NAME = "MiniMind RL course";

/** Every page's footer: the two licences (LICENSE, LICENSE-LESSONS at the repository root). */
export const FOOTER = `<footer class="site-footer">The lessons' text and figures are licensed under <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a> (LICENSE-LESSONS); the code (solutions, exercises, grader, tools, labs, lib) under the <a href="https://www.apache.org/licenses/LICENSE-2.0" rel="license">Apache License 2.0</a> (LICENSE). MiniMind and AReaL, which the lessons cite, are Apache-2.0 projects of their authors.</footer>`;

/** The footer of a Chinese page (zh/): the same two licences. */
export const FOOTER_ZH = `<footer class="site-footer">课程正文与插图采用 <a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC BY 4.0</a> 许可（LICENSE-LESSONS）；代码（solutions、exercises、grader、tools、labs、lib）采用 <a href="https://www.apache.org/licenses/LICENSE-2.0" rel="license">Apache License 2.0</a> 许可（LICENSE）。课程引用的 MiniMind 与 AReaL 是其作者以 Apache-2.0 发布的项目。</footer>`;

/** The language switch in a page's header: a link to the other version, or a note that it does not exist yet. */
export type LanguageSwitch = { href: string; label: string; lang: "en" | "zh-CN" } | { missing: string; lang: "en" | "zh-CN" };

export interface NavLink {
  href: string;
  label: string;
}

export interface PageSpec {
  title: string;
  /** The page's main HTML. */
  body: string;
  toc?: readonly Heading[];
  previous?: NavLink;
  next?: NavLink;
  /** The page's language: "zh" for the Chinese pages (in zh/, `<html lang="zh-CN">`). English by default. */
  lang?: "en" | "zh";
  /** The way to the site's root from the page's folder: "" for English pages, "../" for Chinese ones. */
  root?: string;
  /** The link to this page in the other language (or the note that there is none yet). */
  switchTo?: LanguageSwitch;
  /** More of the page's <head> (a workspace page's stylesheet, script and settings). */
  head?: string;
  /** The whole window's width, no column limit (a workspace page: the lesson beside the editor). */
  wide?: boolean;
}

function pager(spec: PageSpec): string {
  const prev = spec.previous ? `<a class="prev" rel="prev" href="${spec.previous.href}">← ${escapeHtml(spec.previous.label)}</a>` : "<span></span>";
  const next = spec.next ? `<a class="next" rel="next" href="${spec.next.href}">${escapeHtml(spec.next.label)} →</a>` : "<span></span>";
  return spec.previous || spec.next ? `<nav class="pager" aria-label="lessons">${prev}${next}</nav>` : "";
}

function tocHtml(toc: readonly Heading[], zh: boolean): string {
  const items = toc.map((h) => `<li class="toc-h${h.level}"><a href="#${h.id}">${h.html}</a></li>`).join("\n");
  return `<nav class="toc" aria-label="${zh ? "目录" : "contents"}"><p class="toc-title">${zh ? "本页内容" : "On this page"}</p><ul>\n${items}\n</ul></nav>`;
}

function switchHtml(to: LanguageSwitch | undefined): string {
  if (!to) return "";
  if ("missing" in to) return `<span class="lang-switch missing" lang="${to.lang}">${escapeHtml(to.missing)}</span>`;
  return `<a class="lang-switch" href="${to.href}" hreflang="${to.lang}" lang="${to.lang}">${escapeHtml(to.label)}</a>`;
}

/** A whole page: the layout around `spec.body`, in the page's language. */
export function layout(spec: PageSpec): string {
  const zh = spec.lang === "zh";
  const root = spec.root ?? "";
  const hasToc = spec.toc !== undefined && spec.toc.length > 0;
  return `<!doctype html>
<html lang="${zh ? "zh-CN" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(spec.title)} · ${COURSE_NAME}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}assets/katex/katex.min.css">
<link rel="stylesheet" href="${root}assets/highlight.css">
<link rel="stylesheet" href="${root}assets/style.css">
${spec.head ?? ""}</head>
<body>
<header class="site-header"><a href="index.html">${COURSE_NAME}</a>${switchHtml(spec.switchTo)}</header>
<div class="page${hasToc ? " with-toc" : ""}${spec.wide ? " wide" : ""}">
${hasToc ? tocHtml(spec.toc ?? [], zh) : ""}
<main>
${pager(spec)}
${spec.body}
${pager(spec)}
</main>
</div>
${zh ? FOOTER_ZH : FOOTER}
</body>
</html>
`;
}

export const STYLE = `
:root { --text: #1d1f23; --muted: #5f6670; --line: #e2e5e9; --accent: #2457a6; --soft: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--text); font: 17px/1.65 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
.site-header { padding: 0.7rem 1.5rem; border-bottom: 1px solid var(--line); font-weight: 600; }
.site-header { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
.site-header a { text-decoration: none; color: var(--text); }
.site-header .lang-switch { font-weight: 400; font-size: 0.92rem; color: var(--accent); }
.site-header .lang-switch.missing { color: var(--muted); }
.page { max-width: 1180px; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
.page.with-toc { display: grid; grid-template-columns: 240px minmax(0, 1fr); gap: 2.5rem; }
main { max-width: 820px; min-width: 0; }
.page:not(.with-toc) main { margin: 0 auto; }
.toc { position: sticky; top: 1rem; align-self: start; max-height: calc(100vh - 2rem); overflow-y: auto; font-size: 0.88rem; }
.toc-title { font-weight: 600; color: var(--muted); margin: 0.5rem 0; }
.toc ul { list-style: none; padding: 0; margin: 0; }
.toc li { margin: 0.25rem 0; }
.toc .toc-h3 { padding-left: 1rem; }
.toc a { text-decoration: none; color: var(--text); }
.toc a:hover { color: var(--accent); }
h1 { font-size: 2rem; line-height: 1.25; margin: 1rem 0; }
h2 { margin-top: 2.5rem; padding-top: 0.5rem; border-top: 1px solid var(--line); }
code { font: 0.88em/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 0.1em 0.3em; border-radius: 4px; }
main { overflow-wrap: break-word; }
code { overflow-wrap: anywhere; }
pre { max-width: 100%; }
main img { max-width: 100%; height: auto; }
main figure { margin: 1.5rem 0; }
main figure img { display: block; }
main figcaption { margin-top: 0.5rem; color: var(--muted); font-size: 0.92rem; font-style: italic; }
.site-footer { max-width: 1180px; margin: 0 auto; padding: 1.5rem; border-top: 1px solid var(--line); color: var(--muted); font-size: 0.85rem; }
pre.hljs { padding: 0.9rem 1rem; border-radius: 6px; overflow-x: auto; white-space: pre; border: 1px solid var(--line); line-height: 1.45; }
pre.hljs code { background: none; padding: 0; font-size: 0.85rem; line-height: inherit; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 0.35rem 0.7rem; text-align: left; }
th { background: var(--soft); }
blockquote { margin: 1rem 0; padding: 0.2rem 1rem; border-left: 4px solid var(--line); color: var(--muted); }
.math-display { overflow-x: auto; overflow-y: hidden; }
/* A long inline formula cannot break: it scrolls inside its own box instead of widening the page. */
:not(.katex-display) > .katex { display: inline-block; max-width: 100%; overflow-x: auto; overflow-y: hidden; vertical-align: bottom; }
a.citation code { color: var(--accent); }
.repo-path { color: var(--muted); }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1rem 0; font-size: 0.95rem; }
.exercise-files h3 code { font-size: 1rem; }
details.mistakes, details.answer { border: 1px solid var(--line); border-radius: 6px; padding: 0.4rem 1rem; margin: 0.6rem 0; background: var(--soft); }
details.mistakes summary, details.answer summary { cursor: pointer; color: var(--muted); font-weight: 600; }
details.answer { padding: 0.2rem 0.8rem; font-size: 0.95rem; }
details.answer p { margin: 0.4rem 0; }
details.solution { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem; margin: 1rem 0; }
details.solution summary { cursor: pointer; font-weight: 600; }
.module { margin-top: 2rem; }
.lessons { list-style: none; padding: 0; }
.lessons li { display: flex; gap: 0.8rem; align-items: baseline; padding: 0.3rem 0; border-bottom: 1px solid var(--line); }
.lessons .num { width: 2rem; text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
.lessons .soon { color: var(--muted); }
.lessons .meta { margin-left: auto; color: var(--muted); font-size: 0.85rem; }
@media (max-width: 900px) { .page.with-toc { display: block; } .toc { position: static; max-height: none; } }
`;
