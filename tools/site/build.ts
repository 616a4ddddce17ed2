/**
 * Builds the course website: a static folder with an index of every lesson (grouped by module;
 * lessons not written yet are listed as coming soon), one page per written lesson with its table
 * of contents, its exercises' signatures and commands, and previous/next links. Reference
 * solutions are published only when asked (`withSolutions`), each behind a collapsed <details>.
 * Both languages: the English pages at the root, the Chinese ones (lessons/zh/) in zh/, each
 * lesson page with a switch to its other version (or a note that there is none yet).
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { CATALOG, MODULE_TITLES, type LessonInfo } from "../../lib/catalog.js";
import { ROOT, paths } from "../../grader/engine/paths.js";
import { generateStub } from "../../lib/stubs.js";
import { exportedTypesIn, functionsIn, type FunctionInfo } from "../loop/functions.js";
import { codeBlock, createMarkdown, renderMarkdown, type Heading, type LinkTarget, type RenderEnv } from "./markdown.js";
import { escapeHtml } from "./html.js";
import { COURSE_NAME, STYLE, layout, type LanguageSwitch, type NavLink } from "./page.js";
import { ENGLISH_ONLY_ZH, LANG_DIR, WORDS, titleFromHeading, type SiteLang } from "./languages.js";
import { trainingLink, writeWorkspacePage, writeWorkspaceStyle, type WorkspacePlan } from "./workspace.js";

export interface BuildOptions {
  outDir: string;
  /** Publish each lesson's reference solution (collapsed). Off by default. */
  withSolutions?: boolean;
  /** Where the lesson markdown lives (lessons/ unless a test says otherwise). */
  lessonsDir?: string;
  /** Where the Chinese lessons live (`<lessonsDir>/zh` unless a test says otherwise). */
  zhLessonsDir?: string;
  /**
   * Write a workspace page beside each lesson page the plan names, and link it from the lesson
   * (workspace.ts; workspace-build.ts builds the grading folder they use). Off by default.
   */
  workspace?: WorkspacePlan;
}

export interface BuildResult {
  outDir: string;
  /** The pages written, index.html first, then the Chinese ones (zh/index.html first). */
  pages: string[];
  /** The lessons that have a page. */
  lessons: LessonInfo[];
  /** The lessons that have a Chinese page (zh/<page>). */
  zhLessons: LessonInfo[];
  /** Broken math, links to files that do not exist: the authors should fix these. */
  problems: string[];
}

/** Written into every built site so that a rebuild may safely empty the folder. */
const MARKER = ".course-site";
const IMAGE = /\.(svg|png|jpe?g|gif|webp)$/i;

export function pageName(lesson: LessonInfo): string {
  return lesson.file.replace(/\.md$/, ".html");
}

/** Why the site cannot be built into `outDir` (a folder with other content), or undefined. */
export function outDirProblem(outDir: string): string | undefined {
  const dir = resolve(outDir);
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${outDir} is a file: choose a folder`;
  if (readdirSync(dir).length > 0 && !existsSync(join(dir, MARKER))) return `${outDir} is not empty and was not built by \`npm run site\`: choose a new or empty folder`;
  return undefined;
}

function prepareOutDir(outDir: string): void {
  const problem = outDirProblem(outDir);
  if (problem) throw new Error(problem);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "assets"), { recursive: true });
  writeFileSync(join(outDir, MARKER), "built by `npm run site`; the whole folder is replaced on every build\n");
}

function copyAssets(outDir: string): void {
  const require = createRequire(import.meta.url);
  const katexDist = dirname(require.resolve("katex/dist/katex.min.css"));
  mkdirSync(join(outDir, "assets", "katex"), { recursive: true });
  copyFileSync(join(katexDist, "katex.min.css"), join(outDir, "assets", "katex", "katex.min.css"));
  cpSync(join(katexDist, "fonts"), join(outDir, "assets", "katex", "fonts"), { recursive: true });
  copyFileSync(require.resolve("highlight.js/styles/github.css"), join(outDir, "assets", "highlight.css"));
  writeFileSync(join(outDir, "assets", "style.css"), STYLE.trimStart());
}

/** Which lessons have a page in each language, and where each language's markdown lives. */
interface Written {
  en: ReadonlySet<string>;
  zh: ReadonlySet<string>;
  zhDir: string;
}

/** The href from a page of `from` to the page of `lesson` in `to`. */
function pageHref(lesson: LessonInfo, from: SiteLang, to: SiteLang): string {
  return `${from === to ? "" : from === "zh" ? "../" : LANG_DIR[to]}${pageName(lesson)}`;
}

/** Where a relative link in a lesson goes on the site; `lang` is the page's language. */
function linkResolver(lessonFile: string, written: Written, outDir: string, lang: SiteLang = "en"): (href: string, kind: "link" | "image") => LinkTarget {
  return (href, kind) => {
    const [pathPart, hash] = href.split("#", 2) as [string, string | undefined];
    const suffix = hash === undefined ? "" : `#${hash}`;
    if (pathPart === "") return { href };
    const target = resolve(dirname(lessonFile), decodeURI(pathPart));
    const lesson = CATALOG.find((l) => l.file === basename(target));
    if (lesson && target.endsWith(".md")) {
      // A Chinese lesson's link to another (lessons/zh/NN-….md) leads to its Chinese page, or to the
      // English one until it is translated; a lesson not written yet is named as plain text, not a dead link.
      const toZh = resolve(dirname(target)) === resolve(written.zhDir);
      if (toZh && written.zh.has(lesson.id)) return { href: `${pageHref(lesson, lang, "zh")}${suffix}` };
      return written.en.has(lesson.id) ? { href: `${pageHref(lesson, lang, "en")}${suffix}` } : { plain: true };
    }
    const rel = relative(ROOT, target);
    if (rel.startsWith("..") || !existsSync(target)) {
      const hint = rel.includes(`${sep}out${sep}`) ? " (a lab's output: commit the picture somewhere else, e.g. lessons/img/)" : "";
      return { problem: `links to ${href}, which does not exist${hint}` };
    }
    // Solutions are published only through --with-solutions; other repository files stay in the repository.
    if (rel.startsWith(`solutions${sep}`) || !(kind === "image" || IMAGE.test(target))) return { plain: true };
    const published = join("files", rel).split(sep).join("/");
    mkdirSync(dirname(join(outDir, published)), { recursive: true });
    copyFileSync(target, join(outDir, published));
    return { href: `${lang === "zh" ? "../" : ""}${published}${suffix}` };
  };
}

/** The files a lesson's exercises are read from: generated stubs of solutions/, else exercises/. */
function exerciseSources(lesson: string): Array<{ file: string; text: string }> {
  const fromSolutions = join(paths.solutions, lesson);
  const dir = existsSync(fromSolutions) ? fromSolutions : join(paths.exercises, lesson);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      return { file: f, text: dir === fromSolutions ? generateStub(text, lesson, f) : text };
    });
}

/** The functions a learner writes: exported, with a stub body that throws NotImplementedError. */
function exerciseFunctions(stub: string, file: string): FunctionInfo[] {
  return functionsIn(stub, file).filter((f) => f.exported && stub.slice(f.bodyStart, f.bodyEnd).includes("NotImplementedError"));
}

/** A signature as written, or with one parameter per line when it is too long to read on one. */
function displayedSignature(fn: FunctionInfo): string {
  if (fn.signature.length <= 96 || fn.parameters.length === 0) return fn.signature;
  return `${fn.head}(\n${fn.parameters.map((p) => `  ${p},`).join("\n")}\n)${fn.tail}`;
}

/** "Exercises in code": every exported function's doc comment and signature, and the commands. */
function exercisesSection(lesson: LessonInfo, toc: Heading[], lang: SiteLang = "en"): string {
  const words = WORDS[lang];
  const parts: string[] = [];
  const entries: Heading[] = [];
  for (const { file, text } of exerciseSources(lesson.id)) {
    const fns = exerciseFunctions(text, file);
    if (fns.length === 0) continue;
    parts.push(`<p>${words.exercisesIn(`exercises/${lesson.id}/${escapeHtml(file)}`)}</p>`);
    for (const t of exportedTypesIn(text, file)) parts.push(codeBlock(t.text, "ts"));
    for (const fn of fns) {
      const id = `code-${fn.name}`;
      entries.push({ level: 3, id, html: `<code>${fn.name}</code>` });
      parts.push(`<h3 id="${id}"><code>${fn.name}</code></h3>`);
      parts.push(codeBlock(`${fn.doc ? `${fn.doc}\n` : ""}${displayedSignature(fn)} { … }`, "ts"));
    }
  }
  if (parts.length === 0) return "";
  const lab = existsSync(join(ROOT, "labs", lesson.id, "main.ts"));
  const commands = [
    `npm run grade ${lesson.id}      # grade your code`,
    `npm run watch ${lesson.id}      # re-grade on every save`,
    `npm run hint ${lesson.id}       # one hint at a time`,
    ...(lab ? [`npm run lab ${lesson.id}        # run the lesson's experiment`] : []),
  ];
  toc.push({ level: 2, id: "code-exercises", html: words.exercisesHeading }, ...entries, { level: 3, id: "code-commands", html: words.commands });
  return [
    `<section class="exercise-files"><h2 id="code-exercises">${words.exercisesHeading}</h2>`,
    ...parts,
    `<h3 id="code-commands">${words.commands}</h3>`,
    codeBlock(commands.join("\n"), "bash"),
    "</section>",
  ].join("\n");
}

/** The reference solution files of a lesson, each in a collapsed <details>, markers removed. */
function solutionsSection(lesson: LessonInfo, toc: Heading[], lang: SiteLang = "en"): string {
  const words = WORDS[lang];
  const dir = join(paths.solutions, lesson.id);
  if (!existsSync(dir)) return "";
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).sort();
  if (files.length === 0) return "";
  toc.push({ level: 2, id: "code-solution", html: words.solutionHeading });
  const blocks = files.map((f) => {
    const code = readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => !/^\s*\/\/ (BEGIN|END) SOLUTION\s*$/.test(l))
      .join("\n");
    return `<details class="solution"><summary>solutions/${lesson.id}/${escapeHtml(f)}</summary>\n${codeBlock(code, "ts")}</details>`;
  });
  return [`<section><h2 id="code-solution">${words.solutionHeading}</h2>`, `<p>${words.solutionIntro}</p>`, ...blocks, "</section>"].join("\n");
}

/**
 * The index of one language. A Chinese index links each lesson's Chinese page, or its English page
 * (marked as such) until it is translated; `titles` holds the Chinese lessons' own titles.
 */
function indexPage(lang: SiteLang, written: Written, exerciseCounts: ReadonlyMap<string, number>, titles: ReadonlyMap<string, string>): string {
  const words = WORDS[lang];
  const description = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { description?: string }).description ?? "";
  const modules = [...new Set(CATALOG.map((l) => l.module))].map((m) => {
    const items = CATALOG.filter((l) => l.module === m).map((l) => {
      let title: string;
      if (lang === "zh" && written.zh.has(l.id)) title = `<a href="${pageName(l)}">${escapeHtml(titles.get(l.id) ?? l.title)}</a>`;
      else if (written.en.has(l.id)) {
        const english = lang === "zh" ? ` <span class="soon" lang="zh-CN">（${ENGLISH_ONLY_ZH}）</span>` : "";
        title = `<a href="${pageHref(l, lang, "en")}"${lang === "zh" ? ' hreflang="en" lang="en"' : ""}>${escapeHtml(l.title)}</a>${english}`;
      } else title = `<span class="soon">${escapeHtml(titles.get(l.id) ?? l.title)} · ${words.comingSoon}</span>`;
      const n = exerciseCounts.get(l.id) ?? 0;
      return `<li><span class="num">${l.number}</span>${title}${n > 0 ? `<span class="meta">${words.exercises(n)}</span>` : ""}</li>`;
    });
    return `<section class="module"><h2>${escapeHtml(words.moduleTitle(m))}</h2>\n<ol class="lessons">\n${items.join("\n")}\n</ol></section>`;
  });
  const intro = `<h1>${COURSE_NAME}</h1>\n${words.intro(escapeHtml(description))}`;
  const switchTo: LanguageSwitch = lang === "en" ? { href: "zh/index.html", label: WORDS.en.switchLabel, lang: "zh-CN" } : { href: "../index.html", label: WORDS.zh.switchLabel, lang: "en" };
  return layout({ title: words.indexTitle, body: `${intro}\n${modules.join("\n")}`, lang, root: lang === "zh" ? "../" : "", switchTo });
}

/** The switch on a lesson page of `lang`: to the other version, or the note that it is not there yet. */
function lessonSwitch(lesson: LessonInfo, lang: SiteLang, written: Written): LanguageSwitch {
  const other: SiteLang = lang === "en" ? "zh" : "en";
  const htmlLang = WORDS[other].htmlLang;
  return written[other].has(lesson.id) ? { href: pageHref(lesson, lang, other), label: WORDS[lang].switchLabel, lang: htmlLang } : { missing: WORDS[lang].switchMissing, lang: htmlLang };
}

/** Builds the whole site (both languages) into `opts.outDir`; see BuildResult. */
export function buildSite(opts: BuildOptions): BuildResult {
  const outDir = resolve(opts.outDir);
  const lessonsDir = opts.lessonsDir ?? paths.lessons;
  const zhDir = opts.zhLessonsDir ?? join(lessonsDir, "zh");
  prepareOutDir(outDir);
  copyAssets(outDir);
  if (opts.workspace) writeWorkspaceStyle(outDir);
  mkdirSync(join(outDir, "zh"), { recursive: true });
  const md = createMarkdown();
  const lessons = CATALOG.filter((l) => existsSync(join(lessonsDir, l.file)));
  const zhLessons = CATALOG.filter((l) => existsSync(join(zhDir, l.file)));
  const written: Written = { en: new Set(lessons.map((l) => l.id)), zh: new Set(zhLessons.map((l) => l.id)), zhDir };
  const problems: string[] = [];
  const exerciseCounts = new Map(CATALOG.map((l) => [l.id, exerciseSources(l.id).flatMap((s) => exerciseFunctions(s.text, s.file)).length]));
  const pages = ["index.html"];
  const englishIds = new Map<string, string[]>();
  writeFileSync(join(outDir, "index.html"), indexPage("en", written, exerciseCounts, new Map()));
  lessons.forEach((lesson, i) => {
    const file = join(lessonsDir, lesson.file);
    const ids: string[] = [];
    const env: RenderEnv = { source: relative(ROOT, file), problems, headings: [], resolve: linkResolver(file, written, outDir), ids };
    const html = renderMarkdown(md, readFileSync(file, "utf8"), env);
    englishIds.set(lesson.id, ids);
    const toc = [...env.headings];
    const exercises = exercisesSection(lesson, toc);
    const solutions = opts.withSolutions ? solutionsSection(lesson, toc) : "";
    const [prev, next] = [lessons[i - 1], lessons[i + 1]];
    const switchTo = lessonSwitch(lesson, "en", written);
    const workspace = opts.workspace && writeWorkspacePage(outDir, { lesson, lang: "en", title: lesson.title, html, switchTo }, opts.workspace);
    const training = opts.workspace ? trainingLink(lesson, "en") : "";
    const page = layout({
      title: WORDS.en.lessonTitle(lesson, lesson.title),
      body: `<article>\n${workspace?.link ?? ""}${training}${html}\n${exercises}\n${solutions}\n</article>`,
      toc,
      previous: prev && { href: pageName(prev), label: `${prev.number} · ${prev.title}` },
      next: next && { href: pageName(next), label: `${next.number} · ${next.title}` },
      switchTo,
    });
    writeFileSync(join(outDir, pageName(lesson)), page);
    pages.push(pageName(lesson), ...(workspace ? [workspace.page] : []));
  });
  // The Chinese pages: headings take the English twin's ids, so an anchor means the same section in both.
  const titles = new Map<string, string>();
  const zhPages: Array<{ lesson: LessonInfo; html: string; toc: Heading[] }> = zhLessons.map((lesson) => {
    const file = join(zhDir, lesson.file);
    const env: RenderEnv = { source: relative(ROOT, file), problems, headings: [], resolve: linkResolver(file, written, outDir, "zh"), lang: "zh", headingIds: englishIds.get(lesson.id) };
    const html = renderMarkdown(md, readFileSync(file, "utf8"), env);
    titles.set(lesson.id, titleFromHeading(env.title, lesson.title));
    return { lesson, html, toc: [...env.headings] };
  });
  pages.push("zh/index.html");
  writeFileSync(join(outDir, "zh", "index.html"), indexPage("zh", written, exerciseCounts, titles));
  // A Chinese page's neighbours are the lessons that have a page in either language, the Chinese one when it exists.
  const sequence = CATALOG.filter((l) => written.en.has(l.id) || written.zh.has(l.id));
  const neighbour = (l: LessonInfo | undefined): NavLink | undefined =>
    l && { href: pageHref(l, "zh", written.zh.has(l.id) ? "zh" : "en"), label: `${l.number} · ${titles.get(l.id) ?? l.title}` };
  for (const { lesson, html, toc } of zhPages) {
    const exercises = exercisesSection(lesson, toc, "zh");
    const solutions = opts.withSolutions ? solutionsSection(lesson, toc, "zh") : "";
    const i = sequence.indexOf(lesson);
    const switchTo = lessonSwitch(lesson, "zh", written);
    const workspace = opts.workspace && writeWorkspacePage(outDir, { lesson, lang: "zh", title: titles.get(lesson.id) ?? lesson.title, html, switchTo }, opts.workspace);
    const training = opts.workspace ? trainingLink(lesson, "zh") : "";
    const page = layout({
      title: WORDS.zh.lessonTitle(lesson, titles.get(lesson.id) ?? lesson.title),
      body: `<article>\n${workspace?.link ?? ""}${training}${html}\n${exercises}\n${solutions}\n</article>`,
      toc,
      previous: neighbour(sequence[i - 1]),
      next: neighbour(sequence[i + 1]),
      lang: "zh",
      root: "../",
      switchTo,
    });
    writeFileSync(join(outDir, "zh", pageName(lesson)), page);
    pages.push(`zh/${pageName(lesson)}`, ...(workspace ? [workspace.page] : []));
  }
  return { outDir, pages, lessons, zhLessons, problems };
}
