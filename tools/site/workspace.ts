/**
 * The site's workspace pages: for each graded lesson the browser grades, `<page>.workspace.html`
 * beside its lesson page (English at the root, Chinese in zh/): the lesson's text beside an
 * editor of the learner's files, a Grade button and the report as the terminal prints it, hints,
 * and export/import of the workspace as a zip (the page's script: tools/browser/workspace-page.ts).
 * A graded lesson the browser cannot grade yet gets a page that says why
 * (tools/browser/lessons.ts BROWSER_UNSUPPORTED). Each lesson page links to its workspace.
 *
 * buildSite (build.ts) stays synchronous and fast and writes the pages when given a plan
 * (`BuildOptions.workspace`); workspace-build.ts then builds the grading folder the pages use,
 * `grading/` (slow: it freezes expectations).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LessonInfo } from "../../lib/catalog.js";
import { BROWSER_LESSONS, BROWSER_UNSUPPORTED } from "../browser/lessons.js";
import { escapeHtml } from "./html.js";
import { layout, type LanguageSwitch, type NavLink } from "./page.js";
import type { SiteLang } from "./languages.js";

/** The grading folder inside the site (tools/browser/build.ts's output). */
export const GRADING_DIR = "grading";

/** Which lessons get a workspace page: those graded in the page, and those that cannot be yet (with why). */
export interface WorkspacePlan {
  supported: readonly string[];
  unsupported: Readonly<Record<string, string>>;
}

/** A lesson's workspace page, in its language's folder: 09-embedding….workspace.html. */
export function workspacePageName(lesson: LessonInfo): string {
  return lesson.file.replace(/\.md$/, ".workspace.html");
}

const WORDS = {
  en: {
    link: (id: string, href: string) => `<strong>Write and grade this lesson in your browser:</strong> <a class="workspace-link" href="${href}">open the ${id} workspace</a> (nothing to install; your files stay in this browser).`,
    unsupportedLink: (href: string) => `<a class="workspace-link" href="${href}">Why this lesson is not graded in the browser yet</a>.`,
    title: (n: number) => `Workspace · lesson ${n}`,
    note: "Your code is compiled in this page and graded in a Web Worker against the course's frozen expectations, with the same cases and tolerances as <code>npm run grade</code>. Self-study only: the expected outputs are in this page, so a verdict here is feedback, not proof.",
    grade: "Grade",
    verbose: "every failing case",
    hint: "Hint",
    hintFor: "for",
    export: "Export workspace (.zip)",
    import: "Import a .zip",
    clone: (id: string) =>
      `To take your work to a clone: unzip the export at the clone's root and run <code>npm run grade ${id}</code>, or <code>npm run workspace -- import workspace.zip</code> (it backs up every file it replaces). <code>npm run workspace -- export workspace.zip</code> in a clone gives a zip this page imports.`,
    unsupported: (id: string, why: string) =>
      `<p><strong>${id} cannot be graded in the browser yet:</strong> ${escapeHtml(why)}.</p><p>Grade it in a clone of the course: <code>npm run grade ${id}</code>. Files you import on another workspace page keep this lesson's files too, and export them again.</p>`,
    back: "the lesson",
    train: (href: string, what: string) => `<strong>Run it in your browser:</strong> <a class="training-link" href="${href}">${what}</a>, on this laptop's GPU where the browser offers one (WebGPU or WebGL), else wasm; it uses your functions where their lesson passes in this browser's workspaces.`,
    trainWhat: { pretrain: "pretrain a tiny model with a live loss curve", grpo: "GRPO on the sort task from a small start model, with live reward and held-out accuracy" },
  },
  zh: {
    link: (id: string, href: string) => `<strong>在浏览器里完成并评分本课：</strong><a class="workspace-link" href="${href}">打开 ${id} 的练习工作区</a>（无需安装；你的文件保存在本浏览器中）。`,
    unsupportedLink: (href: string) => `<a class="workspace-link" href="${href}">为什么本课暂时不能在浏览器中评分</a>。`,
    title: (n: number) => `练习工作区 · 第 ${n} 课`,
    note: "你的代码在本页中编译，在 Web Worker 中运行，并与课程冻结的期望值比较，用例和容差与 <code>npm run grade</code> 相同。仅供自学：期望输出就在本页中，所以这里的结论是反馈，不是证明。",
    grade: "评分",
    verbose: "全部失败用例",
    hint: "提示",
    hintFor: "函数",
    export: "导出工作区（.zip）",
    import: "导入 .zip",
    clone: (id: string) =>
      `把作业带到克隆的仓库：在仓库根目录解压导出的文件，再运行 <code>npm run grade ${id}</code>；或运行 <code>npm run workspace -- import workspace.zip</code>（它会先备份要替换的每个文件）。在仓库中运行 <code>npm run workspace -- export workspace.zip</code> 得到的 zip 可以在本页导入。`,
    unsupported: (id: string, why: string) =>
      `<p><strong>${id} 暂时不能在浏览器中评分：</strong>${escapeHtml(why)}。</p><p>请在克隆的课程仓库中评分：<code>npm run grade ${id}</code>。在其他练习工作区导入的文件也会保留本课的文件，并可再次导出。</p>`,
    back: "返回课文",
    train: (href: string, what: string) => `<strong>在浏览器里运行：</strong><a class="training-link" href="${href}">${what}</a>；浏览器提供 GPU（WebGPU 或 WebGL）时用本机 GPU，否则用 wasm；某课在本浏览器的练习工作区通过后，就用你写的函数。`,
    trainWhat: { pretrain: "预训练一个小模型，实时显示损失曲线", grpo: "从小起点模型在排序任务上做 GRPO，实时显示奖励与留出集准确率" },
  },
} as const;

/** The lessons whose page links a training page of the grading folder (tools/browser/train-build.ts, grpo-build.ts): lab 7's pretraining, lesson 24's GRPO. */
const TRAINING_PAGES: Readonly<Record<string, { page: string; what: keyof (typeof WORDS)["en"]["trainWhat"] }>> = {
  "lesson-7": { page: "train.html", what: "pretrain" },
  "lesson-24": { page: "grpo.html", what: "grpo" },
};

/** The paragraph a lesson page shows when the grading folder has a training page for its lesson (lessons 7 and 24); empty otherwise. */
export function trainingLink(lesson: LessonInfo, lang: SiteLang): string {
  const t = TRAINING_PAGES[lesson.id];
  if (!t) return "";
  const w = WORDS[lang];
  return `<p class="workspace-banner">${w.train(`${lang === "zh" ? "../" : ""}${GRADING_DIR}/${t.page}`, w.trainWhat[t.what])}</p>\n`;
}

/** What a lesson of `plan` has: an editor page, a page saying why not, or nothing. */
function kindOf(lesson: LessonInfo, plan: WorkspacePlan): "editor" | "unsupported" | undefined {
  if (plan.supported.includes(lesson.id)) return "editor";
  return plan.unsupported[lesson.id] !== undefined ? "unsupported" : undefined;
}

export interface WorkspacePageSpec {
  lesson: LessonInfo;
  lang: SiteLang;
  /** The lesson's title in that language. */
  title: string;
  /** The lesson's rendered text. */
  html: string;
  /** The lesson page's language switch (the workspace page's leads to the other language's workspace). */
  switchTo: LanguageSwitch;
}

/**
 * Writes the workspace page of `spec.lesson` into `outDir` (zh/ for Chinese) when `plan` gives it
 * one, and returns the paragraph its lesson page shows (a link to it) and the page's site path;
 * undefined when the lesson has no workspace.
 */
export function writeWorkspacePage(outDir: string, spec: WorkspacePageSpec, plan: WorkspacePlan): { link: string; page: string } | undefined {
  const kind = kindOf(spec.lesson, plan);
  if (!kind) return undefined;
  const w = WORDS[spec.lang];
  const root = spec.lang === "zh" ? "../" : "";
  const name = workspacePageName(spec.lesson);
  const id = spec.lesson.id;
  const back: NavLink = { href: spec.lesson.file.replace(/\.md$/, ".html"), label: w.back };
  const switchTo: LanguageSwitch = "href" in spec.switchTo ? { ...spec.switchTo, href: spec.switchTo.href.replace(/\.html$/, ".workspace.html") } : spec.switchTo;
  const head = [`<link rel="stylesheet" href="${root}assets/workspace.css">`, ...(kind === "editor" ? [`<meta name="course-grading" content="${root}${GRADING_DIR}/">`, `<script type="module" src="${root}${GRADING_DIR}/workspace.js"></script>`] : [])].join("\n") + "\n";
  const code =
    kind === "editor"
      ? [
          `<section class="ws-code" aria-label="code">`,
          `<p class="ws-note">${w.note}</p>`,
          `<div class="ws-tabs" id="ws-tabs" role="tablist"></div>`,
          `<div class="ws-editor" id="ws-editor"></div>`,
          `<p class="ws-bar"><button id="ws-grade" type="button">${w.grade}</button> <label><input type="checkbox" id="ws-verbose"> ${w.verbose}</label> <span class="ws-saved" id="ws-saved"></span></p>`,
          `<p class="ws-status" id="ws-status" role="status"></p>`,
          `<pre class="ws-report" id="ws-report"></pre>`,
          `<p class="ws-bar"><button id="ws-hint" type="button">${w.hint}</button> <label>${w.hintFor} <select id="ws-hint-function"></select></label></p>`,
          `<pre class="ws-report" id="ws-hints"></pre>`,
          `<p class="ws-bar"><button id="ws-export" type="button">${w.export}</button> <label class="ws-import">${w.import} <input type="file" id="ws-import" accept=".zip,application/zip"></label></p>`,
          `<p class="ws-note">${w.clone(id)}</p>`,
          `</section>`,
        ].join("\n")
      : `<section class="ws-code ws-unsupported" aria-label="code">${w.unsupported(id, plan.unsupported[id])}</section>`;
  const body = `<div class="workspace" id="workspace" data-lesson="${id}" data-lang="${spec.lang}" data-title="${escapeHtml(`${id} · ${spec.title}`)}">\n<section class="ws-lesson"><article>\n${spec.html}\n</article></section>\n${code}\n</div>`;
  const dir = spec.lang === "zh" ? join(outDir, "zh") : outDir;
  writeFileSync(join(dir, name), layout({ title: w.title(spec.lesson.number), body, lang: spec.lang, root, switchTo, head, wide: true, previous: back }));
  const link = `<p class="workspace-banner">${kind === "editor" ? w.link(id, name) : w.unsupportedLink(name)}</p>\n`;
  return { link, page: `${spec.lang === "zh" ? "zh/" : ""}${name}` };
}

/** The workspace pages' stylesheet (assets/workspace.css). */
export const WORKSPACE_STYLE = `
.workspace-banner { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.9rem; font-size: 0.95rem; }
.page.wide { max-width: none; }
.page.wide main { max-width: none; }
.workspace { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr); gap: 1.5rem; align-items: start; }
.ws-lesson { max-height: calc(100vh - 7rem); overflow-y: auto; padding-right: 1rem; border-right: 1px solid var(--line); }
.ws-code { position: sticky; top: 0.5rem; min-width: 0; font-size: 0.92rem; }
.ws-note { color: var(--muted); font-size: 0.85rem; line-height: 1.45; }
.ws-tabs { display: flex; gap: 0.25rem; flex-wrap: wrap; }
.ws-tabs button { font: 0.85rem ui-monospace, monospace; border: 1px solid var(--line); border-bottom: none; background: var(--soft); padding: 0.3rem 0.7rem; border-radius: 6px 6px 0 0; cursor: pointer; }
.ws-tabs button[aria-selected="true"] { background: #fff; font-weight: 600; }
.ws-editor .cm-editor { height: 48vh; border: 1px solid var(--line); font-size: 13px; }
.ws-editor .cm-editor[hidden] { display: none; }
.ws-bar { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; margin: 0.6rem 0; }
.ws-bar button { font: inherit; padding: 0.3rem 0.9rem; cursor: pointer; }
.ws-saved { color: var(--muted); font-size: 0.85rem; margin-left: auto; }
.ws-status { font-weight: 600; margin: 0.4rem 0; }
.ws-report { background: #16181d; color: #d7dae0; padding: 0.75rem 1rem; border-radius: 6px; white-space: pre-wrap; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; max-height: 42vh; overflow: auto; }
.ws-report:empty { display: none; }
.ansi-bold { font-weight: 700; }
.ansi-dim { opacity: 0.62; }
.ansi-red { color: #ff7b72; }
.ansi-green { color: #7ee787; }
.ansi-yellow { color: #e3b341; }
.ansi-cyan { color: #79c0ff; }
@media (max-width: 1000px) { .workspace { display: block; } .ws-lesson { max-height: none; border-right: none; } .ws-code { position: static; } }
`;

/** Writes the workspace pages' stylesheet into the site's assets/. */
export function writeWorkspaceStyle(outDir: string): void {
  mkdirSync(join(outDir, "assets"), { recursive: true });
  writeFileSync(join(outDir, "assets", "workspace.css"), WORKSPACE_STYLE.trimStart());
}

/** The plan for `lessons` (default every lesson the browser grades): those get an editor, the unsupported ones a page saying why. */
export function workspacePlan(lessons: readonly string[] = BROWSER_LESSONS): WorkspacePlan {
  return { supported: lessons, unsupported: BROWSER_UNSUPPORTED };
}
