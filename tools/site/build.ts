/**
 * Builds the course website: a static folder with an index of every lesson (grouped by module;
 * lessons not written yet are listed as coming soon), one page per written lesson with its table
 * of contents, its exercises' signatures and commands, and previous/next links. Reference
 * solutions are published only when asked (`withSolutions`), each behind a collapsed <details>.
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
import { COURSE_NAME, STYLE, layout } from "./page.js";

export interface BuildOptions {
  outDir: string;
  /** Publish each lesson's reference solution (collapsed). Off by default. */
  withSolutions?: boolean;
  /** Where the lesson markdown lives (lessons/ unless a test says otherwise). */
  lessonsDir?: string;
}

export interface BuildResult {
  outDir: string;
  /** The pages written, index.html first. */
  pages: string[];
  /** The lessons that have a page. */
  lessons: LessonInfo[];
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

/** Where a relative link in a lesson goes on the site. */
function linkResolver(lessonFile: string, written: ReadonlySet<string>, outDir: string): (href: string, kind: "link" | "image") => LinkTarget {
  return (href, kind) => {
    const [pathPart, hash] = href.split("#", 2) as [string, string | undefined];
    const suffix = hash === undefined ? "" : `#${hash}`;
    if (pathPart === "") return { href };
    const target = resolve(dirname(lessonFile), decodeURI(pathPart));
    const lesson = CATALOG.find((l) => l.file === basename(target));
    if (lesson && target.endsWith(".md")) {
      // A lesson not written yet is named as plain text, not a dead link.
      return written.has(lesson.id) ? { href: `${pageName(lesson)}${suffix}` } : { plain: true };
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
    return { href: `${published}${suffix}` };
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
function exercisesSection(lesson: LessonInfo, toc: Heading[]): string {
  const parts: string[] = [];
  const entries: Heading[] = [];
  for (const { file, text } of exerciseSources(lesson.id)) {
    const fns = exerciseFunctions(text, file);
    if (fns.length === 0) continue;
    parts.push(`<p>In <code>exercises/${lesson.id}/${escapeHtml(file)}</code>:</p>`);
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
  toc.push({ level: 2, id: "code-exercises", html: "Exercises in code" }, ...entries, { level: 3, id: "code-commands", html: "Commands" });
  return [
    `<section class="exercise-files"><h2 id="code-exercises">Exercises in code</h2>`,
    ...parts,
    `<h3 id="code-commands">Commands</h3>`,
    codeBlock(commands.join("\n"), "bash"),
    "</section>",
  ].join("\n");
}

/** The reference solution files of a lesson, each in a collapsed <details>, markers removed. */
function solutionsSection(lesson: LessonInfo, toc: Heading[]): string {
  const dir = join(paths.solutions, lesson.id);
  if (!existsSync(dir)) return "";
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).sort();
  if (files.length === 0) return "";
  toc.push({ level: 2, id: "code-solution", html: "Reference solution" });
  const blocks = files.map((f) => {
    const code = readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => !/^\s*\/\/ (BEGIN|END) SOLUTION\s*$/.test(l))
      .join("\n");
    return `<details class="solution"><summary>solutions/${lesson.id}/${escapeHtml(f)}</summary>\n${codeBlock(code, "ts")}</details>`;
  });
  return [`<section><h2 id="code-solution">Reference solution</h2>`, `<p>Try the exercises first: the grader and the hints are there to help.</p>`, ...blocks, "</section>"].join("\n");
}

function indexPage(written: ReadonlySet<string>, exerciseCounts: ReadonlyMap<string, number>): string {
  const description = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { description?: string }).description ?? "";
  const modules = [...new Set(CATALOG.map((l) => l.module))].map((m) => {
    const items = CATALOG.filter((l) => l.module === m).map((l) => {
      const title = written.has(l.id) ? `<a href="${pageName(l)}">${escapeHtml(l.title)}</a>` : `<span class="soon">${escapeHtml(l.title)} · coming soon</span>`;
      const n = exerciseCounts.get(l.id) ?? 0;
      return `<li><span class="num">${l.number}</span>${title}${n > 0 ? `<span class="meta">${n} exercise${n === 1 ? "" : "s"}</span>` : ""}</li>`;
    });
    return `<section class="module"><h2>${escapeHtml(MODULE_TITLES[m])}</h2>\n<ol class="lessons">\n${items.join("\n")}\n</ol></section>`;
  });
  const intro = `<h1>${COURSE_NAME}</h1>\n<p>${escapeHtml(description)}</p>\n<p>Each lesson explains one idea, cites the MiniMind or AReaL lines it mirrors, and ends with exercises you grade locally: <code>npm run grade lesson-NN</code>.</p>`;
  return layout({ title: "Lessons", body: `${intro}\n${modules.join("\n")}` });
}

export function buildSite(opts: BuildOptions): BuildResult {
  const outDir = resolve(opts.outDir);
  const lessonsDir = opts.lessonsDir ?? paths.lessons;
  prepareOutDir(outDir);
  copyAssets(outDir);
  const md = createMarkdown();
  const lessons = CATALOG.filter((l) => existsSync(join(lessonsDir, l.file)));
  const written = new Set(lessons.map((l) => l.id));
  const problems: string[] = [];
  const exerciseCounts = new Map(CATALOG.map((l) => [l.id, exerciseSources(l.id).flatMap((s) => exerciseFunctions(s.text, s.file)).length]));
  const pages = ["index.html"];
  writeFileSync(join(outDir, "index.html"), indexPage(written, exerciseCounts));
  lessons.forEach((lesson, i) => {
    const file = join(lessonsDir, lesson.file);
    const env: RenderEnv = { source: relative(ROOT, file), problems, headings: [], resolve: linkResolver(file, written, outDir) };
    const html = renderMarkdown(md, readFileSync(file, "utf8"), env);
    const toc = [...env.headings];
    const exercises = exercisesSection(lesson, toc);
    const solutions = opts.withSolutions ? solutionsSection(lesson, toc) : "";
    const [prev, next] = [lessons[i - 1], lessons[i + 1]];
    const page = layout({
      title: `Lesson ${lesson.number} · ${lesson.title}`,
      body: `<article>\n${html}\n${exercises}\n${solutions}\n</article>`,
      toc,
      previous: prev && { href: pageName(prev), label: `${prev.number} · ${prev.title}` },
      next: next && { href: pageName(next), label: `${next.number} · ${next.title}` },
    });
    writeFileSync(join(outDir, pageName(lesson)), page);
    pages.push(pageName(lesson));
  });
  return { outDir, pages, lessons, problems };
}
