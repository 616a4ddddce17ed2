/**
 * The grading page's script (the judge side): `window.course.grade(lessonId, files)` compiles the
 * learner's files with esbuild-wasm, runs them in a Web Worker against the lesson's cases and
 * judges the outputs against the lesson's frozen expectations (judge-run.ts). It returns what
 * `npm run grade -- <lesson> --json` prints: one record a case with lesson, exercise, name,
 * status, message, …. A small form on grade.html drives the same function.
 */
import { parseFrozen, type FrozenLesson } from "../../grader/engine/frozen.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { compileLearnerFiles, startCompiler, type LessonFiles, type LibTable } from "./compile.js";
import { gradeInBrowser, implDirOf } from "./judge-run.js";
import type { BrowserBackend } from "./backend-choice.js";
import type { BrowserManifest } from "./manifest.js";

/** One record of the JSON report, as grade-cli.ts's --json writes it. */
export type ReportRecord = { lesson: string; name: string } & CaseResult;

export interface GradeOptions {
  /** Seconds a case may run (default 10, as `npm run grade`). */
  timeoutSeconds?: number;
  /** Grade only these functions. */
  only?: string[];
  /**
   * The worker's TensorFlow.js backend: "cpu" (default; exact, as the Node grader's) or another
   * (to measure how a GPU backend's float32 differs: the tolerances stay the cpu's; docs/BROWSER.md).
   */
  backend?: BrowserBackend;
  /**
   * The learner's files of other lessons (lesson → file name → text), as a clone's exercises/ holds
   * them: what a relative import of `../lesson-4/…` reads, and what lib/resolver.ts hands out for
   * the lessons this one borrows from (the manifest's `borrows`; their stubs when not given).
   */
  otherLessons?: LessonFiles;
}

// The built folder: the page's own (grade.html), or the one a page names in <meta name="course-grading"> (the site's workspace pages).
const base = new URL(document.querySelector<HTMLMetaElement>('meta[name="course-grading"]')?.content ?? ".", document.baseURI);
const url = (p: string) => new URL(p, base).href;
let manifest: Promise<BrowserManifest> | undefined;
const getManifest = () => (manifest ??= fetch(url("manifest.json")).then((r) => r.json() as Promise<BrowserManifest>));
let lib: Promise<LibTable> | undefined;
const frozen = new Map<string, Promise<FrozenLesson>>();

async function text(p: string): Promise<string> {
  const r = await fetch(url(p));
  if (!r.ok) throw new Error(`could not fetch ${p}: HTTP ${r.status}`);
  return r.text();
}

/** The JSON report of grading `files` (lesson file name → text) as the learner's lesson `lesson`. */
export async function grade(lesson: string, files: Record<string, string>, opts: GradeOptions = {}): Promise<ReportRecord[]> {
  const m = await getManifest();
  const entry = m.lessons[lesson];
  if (!entry) {
    const why = m.unsupported[lesson];
    throw new Error(why ? `${lesson} cannot be graded in the browser yet: ${why}` : `unknown lesson ${lesson}: the browser grades ${Object.keys(m.lessons).join(", ")}`);
  }
  await startCompiler(url(m.wasm));
  lib ??= text(m.lib).then((t) => JSON.parse(t) as LibTable);
  if (!frozen.has(lesson)) frozen.set(lesson, text(entry.expected).then(parseFrozen));
  const table = await lib;
  // The lent lessons' files import this lesson's as `../lesson-N/…` too (lesson 11's reference imports lesson 12's rope).
  const others = { ...(await borrowedFiles(entry.borrows ?? {}, opts.otherLessons ?? {})), [lesson]: files };
  const compile = (dir: string, these: Record<string, string>) => compileLearnerFiles(lesson, dir, these, table, { others });
  const compiled = await compile(implDirOf(lesson), files);
  // The lessons the worker's resolver lends, compiled as the lesson's own (its refusals apply to them, as in the Node sandbox).
  const lent = Object.fromEntries(await Promise.all(Object.keys(entry.borrows ?? {}).map(async (l) => [l, await compile(implDirOf(l), others[l])] as const)));
  const run = await gradeInBrowser(
    { lesson, files, compiled, lent, frozen: await frozen.get(lesson)!, workerUrl: url(m.worker), casesUrl: url(entry.cases), dataUrl: url(entry.data), only: opts.only, backend: opts.backend },
    { caseTimeoutMs: (opts.timeoutSeconds ?? 10) * 1000 },
  );
  if (run.fatal) throw new Error(`could not grade ${lesson}: ${run.fatal.message}`);
  return run.results.map((r) => ({ lesson, ...r, name: r.case }));
}

/** The given files of other lessons, with those of the lessons a lesson borrows from (lesson → its stubs' path): the learner's as given, else the stubs. */
async function borrowedFiles(borrows: Record<string, string>, given: LessonFiles): Promise<LessonFiles> {
  const entries = await Promise.all(Object.entries(borrows).map(async ([l, stubsPath]) => [l, given[l] ?? (JSON.parse(await text(stubsPath)) as Record<string, string>)] as const));
  return { ...given, ...Object.fromEntries(entries) };
}

/** The lesson's stubs (file name → text), the starting point of the page's editor. */
export async function stubs(lesson: string): Promise<Record<string, string>> {
  const m = await getManifest();
  const entry = m.lessons[lesson];
  if (!entry) throw new Error(`${lesson} is not graded in the browser`);
  return JSON.parse(await text(entry.stubs)) as Record<string, string>;
}

/** The lessons the browser grades, and why each other graded lesson is not supported yet. */
export async function lessons(): Promise<{ supported: string[]; unsupported: Record<string, string> }> {
  const m = await getManifest();
  return { supported: Object.keys(m.lessons), unsupported: m.unsupported };
}

declare global {
  interface Window {
    course: { grade: typeof grade; stubs: typeof stubs; lessons: typeof lessons; ready: boolean };
  }
}

window.course = { grade, stubs, lessons, ready: true };

// ---------------------------------------------------------------- the form on grade.html

const el = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

async function showLesson(lesson: string): Promise<void> {
  const box = el<HTMLDivElement>("files");
  if (!box) return;
  box.replaceChildren();
  for (const [file, body] of Object.entries(await stubs(lesson))) {
    const label = document.createElement("label");
    label.textContent = file;
    const area = document.createElement("textarea");
    area.dataset.file = file;
    area.value = body;
    area.spellcheck = false;
    box.append(label, area);
  }
}

function statusLine(r: ReportRecord): string {
  const why = r.status === "passed" ? "" : `: ${r.message ?? ""}${r.mistake ? `\n      looks like: ${r.mistake}` : ""}`;
  return `${r.status.padEnd(15)} ${r.exercise} › ${r.name}${why}`;
}

async function setUpForm(): Promise<void> {
  const select = el<HTMLSelectElement>("lesson");
  const button = el<HTMLButtonElement>("grade");
  const out = el<HTMLPreElement>("report");
  if (!select || !button || !out) return;
  const { supported, unsupported } = await lessons();
  for (const l of supported) select.append(new Option(l, l));
  const note = el<HTMLParagraphElement>("unsupported");
  const missing = Object.entries(unsupported);
  if (note && missing.length > 0) note.textContent = `Not in the browser yet: ${missing.map(([l, why]) => `${l} (${why})`).join("; ")}`;
  select.onchange = () => void showLesson(select.value);
  await showLesson(select.value);
  button.onclick = async () => {
    const files = Object.fromEntries([...document.querySelectorAll<HTMLTextAreaElement>("#files textarea")].map((a) => [a.dataset.file!, a.value]));
    button.disabled = true;
    out.textContent = "grading …";
    try {
      const report = await grade(select.value, files);
      const passed = report.filter((r) => r.status === "passed").length;
      out.textContent = `${passed}/${report.length} cases passed (TensorFlow.js cpu backend)\n\n${report.map(statusLine).join("\n")}`;
    } catch (err) {
      out.textContent = err instanceof Error ? err.message : String(err);
    } finally {
      button.disabled = false;
    }
  };
}

void setUpForm();
