/**
 * What the tests of grading in a browser share (test/browser-grade.test.ts, test/browser-mutants.test.ts):
 * the built grading folder (tools/browser/build.ts) served on 127.0.0.1 and opened in Debian's
 * chromium through playwright-core, the page's and the Node grader's JSON reports of a set of
 * files, and learner files made of the references and the known mistakes (grader/lesson-NN/mutants*.ts).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import type { ReportRecord } from "../../tools/browser/page.js";
import { ROOT, mutantFiles, paths } from "../../grader/engine/paths.js";
import { buildBrowserGrading } from "../../tools/browser/build.js";
import type { BrowserManifest } from "../../tools/browser/manifest.js";
import { serveStatic, type RunningServer } from "../../tools/site/serve.js";

export const CHROMIUM = process.env.COURSE_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Whether the browser checks run: without chromium they are skipped on a learner's machine (with a warning naming `testFile`), never in CI. */
export function browserReady(testFile: string): boolean {
  const ready = existsSync(CHROMIUM) || process.env.CI !== undefined;
  if (!ready) console.warn(`${testFile}: no browser at ${CHROMIUM} (apt-get install -y chromium, or set COURSE_CHROMIUM): grading in the browser is not checked`);
  return ready;
}

/** Lesson file name → text. */
export type Files = Record<string, string>;

/** Temporary folders made by `fresh`, all removed by `removeAll`. */
export function tempDirs(): { fresh(prefix: string, inside?: string): string; removeAll(): void } {
  const made: string[] = [];
  return {
    fresh(prefix, inside = tmpdir()) {
      const dir = mkdtempSync(join(inside, prefix));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The built grading folder, served and open in chromium at grade.html (window.course ready). */
export interface GradingPage {
  /** The built folder (manifest.json, expected/<lesson>.json, …). */
  out: string;
  manifest: BrowserManifest;
  page: Page;
  close(): Promise<void>;
}

/** Builds the grading folder into `out` (tools/browser/build.ts: minutes for every lesson), serves it and opens its page. */
export async function openGradingPage(out: string): Promise<GradingPage> {
  await buildBrowserGrading(out);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as BrowserManifest;
  const server: RunningServer = await serveStatic(out, 0);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    await page.goto(`${server.url}grade.html`);
    await page.waitForFunction(() => window.course?.ready === true);
    const opened = browser;
    return { out, manifest, page, close: async () => void (await Promise.allSettled([opened.close(), server.close()])) };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

/** How the page grades: `window.course.grade`'s options (tools/browser/page.ts GradeOptions). */
export interface PageGradeOptions {
  timeoutSeconds?: number;
  /** The other lessons' files given to the page (what the resolver lends). */
  otherLessons?: Record<string, Files>;
  /** Only these functions' cases. */
  only?: string[];
}

/** The page's JSON report of `files` graded as the learner's `lesson`. */
export function browserGrade(page: Page, lesson: string, files: Files, opts: PageGradeOptions = {}): Promise<ReportRecord[]> {
  const options = { timeoutSeconds: opts.timeoutSeconds ?? 10, otherLessons: opts.otherLessons ?? {}, ...(opts.only ? { only: opts.only } : {}) };
  return page.evaluate(([l, f, o]) => window.course.grade(l, f, o), [lesson, files, options] as const) as Promise<ReportRecord[]>;
}

/**
 * The Node grader's JSON report of a workspace holding `lessons` (lesson → its files): one
 * `grade-cli.ts --json-file` run (of `args`: a lesson and a function, or none: then every lesson
 * of the workspace is graded, and the ones absent from it report their files missing), grouped by lesson.
 */
export async function nodeGrade(fresh: (prefix: string, inside?: string) => string, lessons: Record<string, Files>, args: readonly string[] = []): Promise<Map<string, ReportRecord[]>> {
  const workspace = fresh(".integrity-browser-", ROOT);
  for (const [lesson, files] of Object.entries(lessons)) {
    mkdirSync(join(workspace, lesson));
    for (const [f, text] of Object.entries(files)) writeFileSync(join(workspace, lesson, f), text);
  }
  const scratch = fresh("course-browser-grade-node-");
  const report = join(scratch, "report.json");
  const env = { ...process.env, COURSE_EXERCISES_DIR: workspace, COURSE_PROGRESS_FILE: join(scratch, "progress.json"), FORCE_COLOR: "0", NO_COLOR: "1" };
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/loop/grade-cli.ts", ...args, "--json-file", report], { cwd: ROOT, env, stdio: "ignore" });
    child.on("exit", resolve);
  });
  if (code !== 0 && code !== 1) throw new Error(`grade-cli exited ${code}`);
  const byLesson = new Map<string, ReportRecord[]>();
  for (const r of JSON.parse(readFileSync(report, "utf8")) as ReportRecord[]) byLesson.set(r.lesson, [...(byLesson.get(r.lesson) ?? []), r]);
  return byLesson;
}

/** The .ts files of a folder, by name. */
export const tsFiles = (dir: string): Files => Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".ts")).sort().map((f) => [f, readFileSync(join(dir, f), "utf8")]));

/** Case ("exercise › case") → status (and named mistake), the part of a report both graders must agree on. */
export function verdicts(report: readonly ReportRecord[]): Map<string, string> {
  return new Map(report.map((r) => [`${r.exercise} › ${r.name}`, `${r.status}${r.mistake ? ` (mistake: ${r.mistake})` : ""}`]));
}

const bundle = async (entry: { contents: string } | { file: string }) => {
  const r = await build({
    ...("file" in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.contents, resolveDir: ROOT, loader: "ts" as const } }),
    bundle: true,
    format: "esm",
    platform: "node",
    external: ["@tensorflow/tfjs"],
    write: false,
    logLevel: "silent",
  });
  return r.outputFiles[0].text;
};

/**
 * The lessons whose functions the page's resolver lends while `lesson` is graded (the built
 * manifest's), each finished as the Node grader's sandbox hands it: its reference, every file
 * bundled with the references it imports (lesson 11's attention with lesson 12's rope), so that
 * none of it is the graded lesson's files.
 */
export async function finishedLentLessons(manifest: BrowserManifest, lesson: string): Promise<Record<string, Files>> {
  const bundled = async (l: string) => {
    const dir = join(paths.solutions, l);
    const files = await Promise.all(Object.keys(tsFiles(dir)).map(async (f) => [f, await bundle({ file: join(dir, f) })] as const));
    return [l, Object.fromEntries(files)] as const;
  };
  return Object.fromEntries(await Promise.all(Object.keys(manifest.lessons[lesson].borrows ?? {}).map(bundled)));
}

const MUTANT_NAME_SLOT = "__course_mutant_name__";

/**
 * The lesson file `file` of the reference with its function `exercise` replaced by a known
 * mistake, as a learner file like any other (TensorFlow.js imported, nothing of the grader's):
 * the reference and the mutant lists (grader/<lesson>/mutants*.ts) bundled with esbuild once,
 * the mistake picked by name. Returns mutant name → that file's text.
 */
export async function mutatedFile(lesson: string, exercise: string, file: string): Promise<(mutant: string) => string> {
  const lists = mutantFiles(lesson);
  const contents = [
    ...lists.map((f, i) => `import { mutants as list${i} } from ${JSON.stringify(f)};`),
    `export * from ${JSON.stringify(join(paths.solutions, lesson, file))};`,
    `const picked = [${lists.map((_, i) => `...list${i}`).join(", ")}].find((m) => m.exercise === ${JSON.stringify(exercise)} && m.name === ${JSON.stringify(MUTANT_NAME_SLOT)});`,
    `if (!picked) throw new Error("no such mutant");`,
    `export const ${exercise} = picked.fn;`,
  ].join("\n");
  const text = await bundle({ contents });
  const [before, ...after] = text.split(MUTANT_NAME_SLOT);
  if (after.length !== 1) throw new Error(`the bundle of ${lesson}/${file} should name the mutant once, not ${after.length} times`);
  return (mutant) => `${before}${JSON.stringify(mutant).slice(1, -1)}${after[0]}`;
}
