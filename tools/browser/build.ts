/**
 * Builds grading in a browser into a static folder (no server-side code): grade.html and its
 * script (page.ts, the judge), the Web Worker (worker.ts, the learner's side) with each supported
 * lesson's cases bundled for the browser, each lesson's data table (the files its cases read:
 * fixtures without their expected values, tokenizer files), its frozen expectations (written by
 * grader/engine/freeze.ts, as the release does), its stubs, the lib/ sources exercises import (the
 * page compiles the learner's files against them) and esbuild-wasm's wasm file. No solutions/, no
 * mutant source and no grader reference code reach the folder: the bundles are guarded
 * (plugins.ts's pageGuard) and checked after the build (`assertNoAnswers`).
 */
import { build, type Metafile } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { initBackend } from "../../lib/backend.js";
import { generateStub } from "../../lib/stubs.js";
import { answerModuleRefusal } from "../../grader/engine/answers.js";
import { fixtureWithoutExpected, LEARNER_DATA_FOLDERS } from "../../grader/engine/bundle.js";
import { freezeLesson } from "../../grader/engine/freeze.js";
import { readFrozen, serializeFrozen } from "../../grader/engine/frozen.js";
import { deps } from "../../grader/engine/deps.js";
import { recordCalls, replaySource } from "../../grader/engine/replay.js";
import { FIXTURE_NAME, ROOT, casesFile, lessonDir, paths } from "../../grader/engine/paths.js";
import type { LibTable } from "./compile.js";
import type { BrowserManifest } from "./manifest.js";
import { BROWSER_LESSONS, BROWSER_UNSUPPORTED, borrowedLessons, lentLessons } from "./lessons.js";
import { BUFFER_SHIM, courseImportMeta, nodeShims, pageGuard, replayedDeps, workerResolver } from "./plugins.js";
import { publishedForTraining, TRAIN_PAGE_ENTRY, TRAIN_WORKER_ENTRY, writeTrainPage } from "./train-build.js";
import { GRPO_PAGE_ENTRY, GRPO_WORKER_ENTRY, writeGrpoPage } from "./grpo-build.js";

/** Where the worker's bundle says the data files are ("/data/grader/lesson-3/fixture.json"). */
export const DATA_ROOT = "/data";

/** The modules whose import makes a lesson's cases read the tokenizer files (bundle.ts's LEARNER_DATA_FOLDERS). */
const TOKENIZER_READERS = ["grader/engine/datasets.ts", "lib/tokenizer.ts"];

const BROWSER_TARGET = ["chrome120", "firefox120", "safari17"];

function write(out: string, rel: string, text: string | Uint8Array): void {
  const file = join(out, rel);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
}

function tsFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".ts")).sort() : [];
}

/** The lesson's data table: its fixture files without expected values, and the tokenizer files when its cases read them. */
function dataTable(lesson: string, meta: Metafile): Record<string, string> {
  const table: Record<string, string> = {};
  const dir = lessonDir(lesson);
  for (const f of readdirSync(dir).filter((n) => FIXTURE_NAME.test(n))) table[`${DATA_ROOT}/grader/${lesson}/${f}`] = fixtureWithoutExpected(readFileSync(join(dir, f), "utf8"));
  const reads = Object.keys(meta.inputs).some((k) => TOKENIZER_READERS.includes(k));
  if (reads) {
    for (const folder of LEARNER_DATA_FOLDERS) {
      for (const f of existsSync(join(ROOT, folder)) ? readdirSync(join(ROOT, folder)) : []) table[`${DATA_ROOT}/${folder}/${f}`] = readFileSync(join(ROOT, folder, f), "utf8");
    }
  }
  return table;
}

/**
 * The lesson's stubs: generated from its reference where this copy has it (what exercises/ holds
 * untouched); in a student edition its pristine stubs (stubs/, what `npm run reset` restores).
 */
function lessonStubs(lesson: string): Record<string, string> {
  const ref = join(paths.solutions, lesson);
  if (existsSync(ref)) return Object.fromEntries(tsFiles(ref).map((f) => [f, generateStub(readFileSync(join(ref, f), "utf8"), lesson, f)]));
  const pristine = join(ROOT, "stubs", lesson);
  const dir = existsSync(pristine) ? pristine : join(ROOT, "exercises", lesson);
  return Object.fromEntries(tsFiles(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

/**
 * The lesson's frozen expectations as the release writes them: frozen now from its reference and
 * mutants (grader/engine/freeze.ts), or, in a student edition without them, the edition's own
 * grader/expected/<lesson>.json.
 */
async function frozenText(lesson: string, backend: string): Promise<string> {
  if (existsSync(join(paths.solutions, lesson))) return serializeFrozen(await freezeLesson(lesson, backend));
  const frozen = readFrozen(lesson);
  if (!frozen) throw new Error(`browser build: ${lesson} has neither its reference (solutions/${lesson}) nor frozen expectations (grader/expected/${lesson}.json)`);
  return serializeFrozen(frozen);
}

/** The lib/ sources the lessons' exercises (and their references, which a learner's code may resemble) import, with per-lesson refusals. */
async function libTable(lessons: readonly string[]): Promise<LibTable> {
  const entries = lessons.flatMap((l) => [join(ROOT, "exercises", l), join(paths.solutions, l)].flatMap((d) => tsFiles(d).map((f) => join(d, f))));
  // Every import kept (verbatimModuleSyntax): a stub uses `tf` in its types alone, and a student edition has no reference to name lib/tf.ts.
  const r = await build({ entryPoints: entries, bundle: true, write: false, outdir: "/tmp/unused", platform: "browser", format: "esm", packages: "external", metafile: true, logLevel: "silent", absWorkingDir: ROOT, plugins: [nodeShims()], tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } } });
  const files: Record<string, string> = {};
  for (const k of Object.keys(r.metafile.inputs).sort()) if (k.startsWith("lib/")) files[k] = readFileSync(join(ROOT, k), "utf8");
  const refused: LibTable["refused"] = {};
  for (const l of lessons) {
    const mine: Record<string, string> = {};
    for (const f of Object.keys(files)) {
      const why = answerModuleRefusal(l, join(ROOT, f));
      if (why) mine[f] = why;
    }
    refused[l] = mine;
  }
  // A learner file (or a lib/ module it imports) may import Node's fs, path, url or crypto: it gets the worker's stand-ins.
  const builtins: LibTable["builtins"] = {};
  for (const name of ["fs", "path", "url", "crypto"]) {
    const rel = `tools/browser/shims/${name}.ts`;
    files[rel] = readFileSync(join(ROOT, rel), "utf8");
    builtins[name] = rel;
  }
  return { files, refused, builtins };
}

/** The lessons lib/model/pieces.ts takes the model's pieces from (imported when needed: it resolves the references as it loads). */
async function pieceHomes(): Promise<string[]> {
  const { PIECE_HOMES } = await import("../../lib/model/pieces.js");
  return Object.values(PIECE_HOMES);
}

/** Fails when anything written would carry a reference solution or a known mistake into the page. */
function assertNoAnswers(meta: Metafile): void {
  const bad = Object.keys(meta.inputs).filter((k) => k.startsWith("solutions/") || /^grader\/lesson-\d+\/mutants/.test(k));
  if (bad.length > 0) throw new Error(`browser build: ${bad.join(", ")} would reach the page`);
}

export interface BrowserBuild {
  out: string;
  lessons: string[];
  /** Bytes written, all files together. */
  bytes: number;
}

const GRADE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Grade a lesson in the browser</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 system-ui, sans-serif; max-width: 72rem; margin: 1.5rem auto; padding: 0 1rem; }
textarea { width: 100%; height: 22rem; font: 13px/1.4 ui-monospace, monospace; display: block; margin-bottom: 1rem; }
label { font-weight: 600; display: block; margin-top: .5rem; }
pre { background: #f6f6f6; padding: .75rem; white-space: pre-wrap; }
.note { color: #555; font-size: 13px; }
</style>
</head>
<body>
<h1>Grade a lesson in the browser</h1>
<p class="note">Your code is compiled in this page and run in a Web Worker on TensorFlow.js's cpu backend, against the
course's frozen expectations (the same cases and tolerances as <code>npm run grade</code>). This is for
self-study: the expected outputs are in this page, so a verdict here is feedback, not proof.</p>
<p><label for="lesson">Lesson</label> <select id="lesson"></select> <button id="grade" type="button">Grade</button></p>
<p class="note" id="unsupported"></p>
<div id="files"></div>
<pre id="report"></pre>
<script type="module" src="./page.js"></script>
</body>
</html>
`;

export interface BrowserBuildOptions {
  /** Lessons whose references the training pages may ship (ids or "all": train-build.ts's publishedForTraining); default a student edition's published ones, in the full course none. */
  publish?: readonly string[] | "all";
  /** More page scripts, bundled as page.js is (output name → source file): the site's workspace page (tools/site/workspace.ts). */
  pages?: Record<string, string>;
}

/** Builds the folder `out` for `lessons` (default: every supported lesson, lessons.ts), with the training page (train-build.ts) and the GRPO page (grpo-build.ts). */
export async function buildBrowserGrading(out: string, lessons: readonly string[] = BROWSER_LESSONS, log: (line: string) => void = () => undefined, opts: BrowserBuildOptions = {}): Promise<BrowserBuild> {
  mkdirSync(out, { recursive: true });
  const common = {
    bundle: true,
    format: "esm" as const,
    platform: "browser" as const,
    target: BROWSER_TARGET,
    minify: true,
    // tfjsOpName (location.ts) reads TensorFlow.js's op names ("add_op") from stack frames.
    keepNames: true,
    absWorkingDir: ROOT,
    metafile: true as const,
    logLevel: "silent" as const,
    inject: [BUFFER_SHIM],
    define: { __COURSE_LEARNER_DATA__: JSON.stringify(DATA_ROOT), "process.env.NODE_ENV": '"production"' },
    plugins: [nodeShims(), pageGuard(), courseImportMeta()],
  };
  const backend = await initBackend("cpu");
  // Every call the graders make to other lessons' references while freezing, replayed in the worker (as a student edition's deps.ts replays them).
  const recording = recordCalls(deps as unknown as Record<string, (...a: any[]) => unknown>);
  const manifest: BrowserManifest = { version: 1, worker: "worker.js", lib: "lib-sources.json", wasm: "esbuild.wasm", lessons: {}, unsupported: { ...BROWSER_UNSUPPORTED } };
  for (const lesson of lessons) {
    log(`freezing ${lesson} …`);
    // Only this lesson's cases and the course modules they import (which data files they read).
    const own = await build({ entryPoints: [casesFile(lesson)], bundle: true, write: false, outdir: join(out, "unused"), platform: "browser", format: "esm", packages: "external", absWorkingDir: ROOT, metafile: true, logLevel: "silent", plugins: [nodeShims()] });
    write(out, `data/${lesson}.json`, JSON.stringify(dataTable(lesson, own.metafile)));
    write(out, `expected/${lesson}.json`, await frozenText(lesson, backend));
    const stubs = lessonStubs(lesson);
    write(out, `stubs/${lesson}.json`, JSON.stringify(stubs));
    // The lessons whose functions the worker's resolver lends (what its stubs take, and its cases' model pieces), and their stubs (lent when the learner gives none).
    const pieces = Object.keys(own.metafile.inputs).includes("lib/model/pieces.ts") ? await pieceHomes() : [];
    const borrows = lentLessons(lesson, (l) => [...borrowedLessons(lessonStubs(l)), ...(l === lesson ? pieces : [])]);
    for (const l of borrows) write(out, `stubs/${l}.json`, JSON.stringify(lessonStubs(l)));
    manifest.lessons[lesson] = { cases: `cases/${lesson}.js`, data: `data/${lesson}.json`, expected: `expected/${lesson}.json`, stubs: `stubs/${lesson}.json`, borrows: Object.fromEntries(borrows.map((l) => [l, `stubs/${l}.json`])) };
  }
  // Where the graders called borrowed functions, the worker's cases answer them from the recording; elsewhere deps.ts is bundled as it is (a student edition's own recording).
  const recorded = Object.values(recording).some((calls) => Object.keys(calls).length > 0);
  log("bundling the worker and the lessons' cases …");
  const workerBuild = await build({
    ...common,
    plugins: [...(recorded ? [replayedDeps(replaySource(recording))] : []), workerResolver(), ...common.plugins],
    entryPoints: { worker: join(ROOT, "tools", "browser", "worker.ts"), ...TRAIN_WORKER_ENTRY, ...GRPO_WORKER_ENTRY, ...Object.fromEntries(lessons.map((l) => [`cases/${l}`, casesFile(l)])) },
    splitting: true,
    outdir: out,
    chunkNames: "chunks/[name]-[hash]",
  });
  assertNoAnswers(workerBuild.metafile);
  log("bundling the page …");
  const pageBuild = await build({ ...common, entryPoints: { page: join(ROOT, "tools", "browser", "page.ts"), ...TRAIN_PAGE_ENTRY, ...GRPO_PAGE_ENTRY, ...opts.pages }, outdir: out });
  assertNoAnswers(pageBuild.metafile);

  // The lib/ sources of the lent lessons' files too: the page compiles those as well.
  const borrowed = Object.values(manifest.lessons).flatMap((e) => Object.keys(e.borrows ?? {}));
  write(out, "lib-sources.json", JSON.stringify(await libTable([...new Set([...lessons, ...borrowed])])));
  copyFileSync(join(ROOT, "node_modules", "esbuild-wasm", "esbuild.wasm"), join(out, "esbuild.wasm"));
  write(out, "grade.html", GRADE_HTML);
  write(out, "manifest.json", JSON.stringify(manifest, null, 2));
  await writeTrainPage(out, publishedForTraining(opts.publish), log);
  await writeGrpoPage(out, publishedForTraining(opts.publish), log);
  const bytes = walk(out).reduce((n, f) => n + readFileSync(f).length, 0);
  log(`wrote ${relative(process.cwd(), out) || out}: ${lessons.length} lesson(s), ${(bytes / 2 ** 20).toFixed(1)} MiB`);
  return { out, lessons: [...lessons], bytes };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}
