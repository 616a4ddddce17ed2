/**
 * The script of a workspace page (`npm run site`, tools/site/workspace.ts): the lesson's text
 * beside a CodeMirror 6 editor holding the learner's files of that lesson (one tab a file), a
 * Grade button and the report as `npm run grade` prints it (grader/report.ts's own formatter,
 * its colours turned into HTML by workspace-ansi.ts), hints on request as `npm run hint` shows
 * them (tools/loop/hint-format.ts), and export/import of the whole workspace as a zip
 * (workspace-layout.ts: the layout `npm run workspace` reads and writes).
 *
 * Files are saved in IndexedDB (store.ts) as the learner types (debounced) and on leaving the
 * page; each grade is recorded with the hash of the files graded. Grading is page.ts's
 * `grade` (compiled in the page, run in a Web Worker, judged against frozen expectations).
 * The page's element contract (ids, data-*) is written by tools/site/workspace.ts.
 * For tests, `window.courseWorkspace` gives the editor's files and waits for the autosave.
 */
import { javascript } from "@codemirror/lang-javascript";
import chalk from "chalk";
import { EditorView, basicSetup } from "codemirror";
import { unzipSync } from "fflate";
import { callsIn } from "../../grader/calls.js";
import { translateMistakes, type MistakeTexts } from "../../grader/mistake-text.js";
import { TIERS, type LessonHints } from "../../grader/engine/hint-types.js";
import { summarise, type FunctionSummary } from "../../grader/engine/summary.js";
import { formatGradedLesson } from "../../grader/report.js";
import { formatHintTiers, tierLabel } from "../loop/hint-format.js";
import { grade, lessons as browserLessons, stubs } from "./page.js";
import * as store from "./store.js";
import { ansiToHtml } from "./workspace-ansi.js";
import { MAX_FILE_BYTES, progressJson, readWorkspaceEntries, refusalMessage, workspaceZip, type WorkspaceFiles } from "./workspace-layout.js";

/** grading/workspace.json, written by tools/site/workspace.ts. */
export interface WorkspaceInfo {
  /** Every graded lesson of the course (an import accepts their files, graded here or not). */
  graded: string[];
  /** Lesson → its hints, in English and (where the lesson has them) Chinese. */
  hints: Record<string, { en: LessonHints; zh?: LessonHints }>;
  /** Lesson → its named mistakes' Chinese texts (grader/i18n.ts chineseMistakes), for the Chinese pages. */
  zhMistakes?: Record<string, MistakeTexts>;
}

type Lang = "en" | "zh";
type Files = Record<string, string>;

const WORDS = {
  en: {
    saved: "saved in this browser",
    verbose: "every failing case",
    saving: "saving …",
    grading: "grading … (compiling your files, then running the cases in a worker)",
    passedAll: (t: number) => `all ${t} cases pass: this lesson is done`,
    passedSome: (p: number, t: number) => `${p}/${t} cases pass`,
    lastGrade: (p: number, t: number, at: string, fresh: boolean) => `last graded ${new Date(at).toLocaleString()}: ${p}/${t} cases${fresh ? "" : " (your files changed since)"}`,
    next: "Read the lesson on the left, then press Grade again (Hint for a hint).",
    noHints: (l: string) => `${l} has no hints yet, sorry: the lesson works through an example with the numbers the grader checks first.`,
    hintAgain: (label: string) => `Press Hint again for ${label}.`,
    hintsDone: (n: string) => `That is every hint for ${n}. If the grader still disagrees, check your numbers against the lesson's worked example, and tick "every failing case".`,
    exported: (n: number, l: number) => `exported ${n} file(s) of ${l} lesson(s)`,
    imported: (l: number, b: number, s: number) => `imported ${l} lesson(s)${b > 0 ? `; ${b} lesson(s) you had here were kept as a backup in this browser first` : ""}${s > 0 ? `; ${s} lesson(s) left out: their files are the untouched stubs` : ""}`,
    notZip: "not a zip archive",
  },
  zh: {
    saved: "已保存在本浏览器中",
    verbose: "全部失败用例",
    saving: "正在保存……",
    grading: "正在评分……（先编译你的文件，再在 Worker 中运行用例）",
    passedAll: (t: number) => `全部 ${t} 个用例通过：本课完成`,
    passedSome: (p: number, t: number) => `${p}/${t} 个用例通过`,
    lastGrade: (p: number, t: number, at: string, fresh: boolean) => `上次评分于 ${new Date(at).toLocaleString()}：${p}/${t} 个用例${fresh ? "" : "（此后你的文件有改动）"}`,
    next: "先读左边的课文，然后再按一次“评分”（“提示”给出一条提示）。",
    noHints: (l: string) => `${l} 还没有提示，抱歉：课文用评分器最先检查的那组数字完整演算了一个例子。`,
    hintAgain: (label: string) => `再按一次“提示”，看下一层：${label}。`,
    hintsDone: (n: string) => `这就是 ${n} 的全部提示。如果评分器仍然不认可，请对照课文里的演算示例检查你的数字，并勾选“全部失败用例”。`,
    exported: (n: number, l: number) => `已导出 ${l} 节课的 ${n} 个文件`,
    imported: (l: number, b: number, s: number) => `已导入 ${l} 节课${b > 0 ? `；其中 ${b} 节课你在这里原有的文件已先在本浏览器中备份` : ""}${s > 0 ? `；${s} 节课未导入：它们的文件是未改动的存根` : ""}`,
    notZip: "不是 zip 压缩包",
  },
} as const;

const root = document.getElementById("workspace") as HTMLElement;
const lesson = root.dataset.lesson!;
const lang: Lang = root.dataset.lang === "zh" ? "zh" : "en";
const title = root.dataset.title ?? lesson;
const words = WORDS[lang];
// The built grading folder, where page.ts finds it too.
const grading = new URL(document.querySelector<HTMLMetaElement>('meta[name="course-grading"]')?.content ?? ".", document.baseURI);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * Runs `f` with the grader's language set as COURSE_LANG would set it in a terminal
 * (grader/i18n.ts reads `process.env`, which a page does not have), and chalk at 16 colours.
 */
function inLanguage<T>(f: () => T): T {
  const g = globalThis as { process?: unknown };
  const had = "process" in g;
  const before = g.process;
  if (!had) g.process = { env: { COURSE_LANG: lang } };
  chalk.level = 1;
  try {
    return f();
  } finally {
    if (!had) delete g.process;
    else g.process = before;
  }
}

const sameFiles = (a: Files, b: Files) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);

// ---------------------------------------------------------------- the editor

const editors = new Map<string, EditorView>();
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let pendingSave: Promise<void> = Promise.resolve();

function currentFiles(): Files {
  return Object.fromEntries([...editors].map(([f, view]) => [f, view.state.doc.toString()]));
}

function setStatus(id: string, text: string): void {
  $(id).textContent = text;
}

/** Saves the editor's files now (and cancels a save that was waiting). */
function saveNow(): Promise<void> {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  const files = currentFiles();
  pendingSave = pendingSave.then(() => store.saveFiles(lesson, files)).then(() => setStatus("ws-saved", words.saved));
  return pendingSave;
}

function scheduleSave(): void {
  setStatus("ws-saved", words.saving);
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void saveNow(), 400);
}

function showTab(file: string): void {
  for (const [f, view] of editors) view.dom.hidden = f !== file;
  for (const b of document.querySelectorAll<HTMLButtonElement>("#ws-tabs button")) b.setAttribute("aria-selected", String(b.dataset.file === file));
}

/** Puts `files` into the editor, one tab a file (the first shown). */
function loadEditors(files: Files): void {
  const tabs = $("ws-tabs");
  const box = $("ws-editor");
  for (const view of editors.values()) view.destroy();
  editors.clear();
  tabs.replaceChildren();
  box.replaceChildren();
  for (const [file, text] of Object.entries(files)) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.dataset.file = file;
    tab.textContent = file;
    tab.onclick = () => showTab(file);
    tabs.append(tab);
    const view = new EditorView({
      doc: text,
      extensions: [basicSetup, javascript({ typescript: true }), EditorView.lineWrapping, EditorView.updateListener.of((u) => u.docChanged && scheduleSave())],
      parent: box,
    });
    view.dom.dataset.file = file;
    editors.set(file, view);
  }
  showTab(Object.keys(files)[0]);
}

// ---------------------------------------------------------------- grading and hints

let info: WorkspaceInfo | undefined;
let summaries: FunctionSummary[] = [];

async function showLastGrade(): Promise<void> {
  const g = await store.gradeOf(lesson);
  if (!g) return;
  const fresh = (await store.filesHash(currentFiles())) === g.filesHash;
  setStatus("ws-status", words.lastGrade(g.passed, g.total, g.at, fresh));
}

async function onGrade(): Promise<void> {
  const button = $<HTMLButtonElement>("ws-grade");
  button.disabled = true;
  const report = $("ws-report");
  setStatus("ws-status", words.grading);
  report.replaceChildren();
  await saveNow();
  const files = currentFiles();
  const t0 = performance.now();
  try {
    // The lessons this one borrows from are graded with the learner's own saved files of them, as
    // the Node sandbox lends them in a student edition (page.ts falls back to their stubs).
    const records = await grade(lesson, files, { otherLessons: await store.allFiles() });
    summaries = summarise(records);
    // "F calls G, which does not pass either", read from the editor's files as the terminal reads them from disk.
    const calls = callsIn(Object.values(files), summaries.map((s) => s.exercise));
    const verbose = $<HTMLInputElement>("ws-verbose").checked;
    // Named mistakes in the page's language, as the terminal's localiseMistakes gives them (the summaries stay English for the hints).
    const shown = lang === "zh" ? translateMistakes(summaries, info?.zhMistakes?.[lesson] ?? {}) : summaries;
    const text = inLanguage(() => formatGradedLesson({ printed: "", backend: "cpu" }, shown, { title, verbose, verboseCommand: words.verbose, calls, ms: performance.now() - t0, next: words.next }));
    report.innerHTML = ansiToHtml(text);
    const passed = records.filter((r) => r.status === "passed").length;
    await store.recordGrade(lesson, { passed, total: records.length, filesHash: await store.filesHash(files), at: new Date().toISOString() });
    setStatus("ws-status", passed === records.length && passed > 0 ? words.passedAll(records.length) : words.passedSome(passed, records.length));
    root.dataset.graded = passed === records.length && passed > 0 ? "passed" : "failed";
    chooseHintFunction();
  } catch (err) {
    report.textContent = err instanceof Error ? err.message : String(err);
    setStatus("ws-status", "");
  } finally {
    button.disabled = false;
  }
}

/** The function to hint at: the first, in the lesson's order, that did not pass at the last grade (as `npm run hint`). */
function chooseHintFunction(): void {
  const select = $<HTMLSelectElement>("ws-hint-function");
  const failing = [...select.options].find((o) => summaries.find((s) => s.exercise === o.value)?.verdict !== "passed");
  if (failing) select.value = failing.value;
}

function lessonHints(): LessonHints | undefined {
  const h = info?.hints[lesson];
  return h && (lang === "zh" ? (h.zh ?? h.en) : h.en);
}

async function onHint(): Promise<void> {
  const out = $("ws-hints");
  const hints = lessonHints();
  if (!hints) {
    out.textContent = words.noHints(lesson);
    return;
  }
  const name = $<HTMLSelectElement>("ws-hint-function").value;
  const seen = (await store.hintsSeen(lesson))[name] ?? 0;
  const showing = Math.min(seen + 1, TIERS.length);
  if (showing > seen) await store.recordHintsSeen(lesson, name, showing);
  const text = inLanguage(() => {
    const tiers = formatHintTiers({ lesson, name, hints: hints.functions[name], showing, seen, width: 78 });
    const after = showing < TIERS.length ? words.hintAgain(tierLabel(TIERS[showing])) : words.hintsDone(name);
    return `${tiers}\n\n${chalk.dim(after)}`;
  });
  out.innerHTML = ansiToHtml(text);
}

// ---------------------------------------------------------------- export and import

/** The zip of every lesson with files saved here, and the page's grades. */
async function exportZip(): Promise<{ bytes: Uint8Array; files: WorkspaceFiles }> {
  await saveNow();
  const files = await store.allFiles();
  return { bytes: workspaceZip(files, progressJson("page", await store.allGrades())), files };
}

async function onExport(): Promise<void> {
  const { bytes, files } = await exportZip();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/zip" }));
  a.download = "minimind-course-workspace.zip";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  setStatus("ws-status", words.exported(Object.values(files).reduce((n, f) => n + Object.keys(f).length, 0), Object.keys(files).length));
}

/**
 * Imports a workspace zip (the page's own export, or a clone's `npm run workspace -- export`):
 * refused whole when an entry is not exercises/<graded lesson>/<file>.ts (or the side file). A
 * lesson whose files are its untouched stubs is left out; files saved here that it replaces are
 * kept in the store's backups first; a grade in the side file is kept only for the very files it graded.
 */
async function importZip(bytes: Uint8Array): Promise<string> {
  const tooBig: string[] = [];
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => (f.originalSize > MAX_FILE_BYTES ? (tooBig.push(`${f.name} (larger than ${MAX_FILE_BYTES >> 20} MiB)`), false) : true) });
  } catch {
    throw new Error(words.notZip);
  }
  const read = readWorkspaceEntries(entries, info?.graded ?? []);
  const refused = [...tooBig, ...read.refused];
  if (refused.length > 0) throw new Error(refusalMessage("this zip", refused));
  const supported = (await browserLessons()).supported;
  let imported = 0;
  let backedUp = 0;
  let skipped = 0;
  for (const [l, files] of Object.entries(read.files)) {
    const stub = supported.includes(l) ? await stubs(l) : undefined;
    const saved = await store.loadFiles(l);
    const next = { ...(saved ?? stub ?? {}), ...files };
    if (stub && !saved && sameFiles(next, stub)) {
      skipped++;
      continue;
    }
    if (saved && !sameFiles(saved, next)) {
      await store.backupFiles(l, saved);
      backedUp++;
    }
    await store.saveFiles(l, next);
    const g = read.progress?.grades[l];
    if (g && g.filesHash === (await store.filesHash(next))) await store.recordGrade(l, g);
    imported++;
  }
  if (read.files[lesson]) {
    loadEditors((await store.loadFiles(lesson))!);
    await showLastGrade();
  }
  return words.imported(imported, backedUp, skipped);
}

async function onImport(input: HTMLInputElement): Promise<void> {
  const file = input.files?.[0];
  if (!file) return;
  try {
    setStatus("ws-status", await importZip(new Uint8Array(await file.arrayBuffer())));
  } catch (err) {
    setStatus("ws-status", err instanceof Error ? err.message : String(err));
  } finally {
    input.value = "";
  }
}

// ---------------------------------------------------------------- start

declare global {
  interface Window {
    courseWorkspace: { ready: boolean; files: () => Files; saved: () => Promise<void>; exportZip: () => Promise<Uint8Array>; importZip: (bytes: Uint8Array) => Promise<string> };
  }
}

async function start(): Promise<void> {
  info = (await (await fetch(new URL("workspace.json", grading))).json()) as WorkspaceInfo;
  loadEditors((await store.loadFiles(lesson)) ?? (await stubs(lesson)));
  const select = $<HTMLSelectElement>("ws-hint-function");
  for (const name of Object.keys(lessonHints()?.functions ?? {})) select.append(new Option(name, name));
  $("ws-grade").onclick = () => void onGrade();
  $("ws-hint").onclick = () => void onHint();
  $("ws-export").onclick = () => void onExport();
  const input = $<HTMLInputElement>("ws-import");
  input.onchange = () => void onImport(input);
  addEventListener("pagehide", () => void saveNow());
  addEventListener("visibilitychange", () => document.visibilityState === "hidden" && void saveNow());
  await showLastGrade();
  window.courseWorkspace = {
    ready: true,
    files: currentFiles,
    saved: () => (saveTimer === undefined ? pendingSave : saveNow()),
    exportZip: async () => (await exportZip()).bytes,
    importZip,
  };
  root.dataset.ready = "true";
}

start().catch((err: unknown) => setStatus("ws-status", err instanceof Error ? err.message : String(err)));

