/**
 * The training page's part of the browser build (build.ts calls it, into the same folder):
 * train.html, train.json (train-protocol.ts's TrainManifest), the data the run reads (the tiny
 * corpus and the course tokenizer), tfjs-backend-wasm's .wasm files (the grading worker uses them
 * too) and, for each lesson the run needs that the build is told is published, its reference
 * solution compiled as the page compiles a learner's files (ES modules, TensorFlow.js shared).
 *
 * References reach the folder only for published lessons: those a student edition lists
 * (`.course-edition.json`'s published) or those the build is told (`publish`); in the full course
 * nothing is published unless told. A published reference whose code reaches an unpublished
 * lesson's solution (lesson 11's attention imports lesson 9's and 12's) is withheld, with why.
 * The grading pages never load these files.
 */
import { build, type Plugin } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readEditionInfo } from "../../lib/course/edition.js";
import { courseTokenizer } from "../../lib/tokenizer.js";
import { pretrainArgs, pretrainModelConfig } from "../../labs/lesson-7/config.js";
import { gradedLessons, ROOT, paths } from "../../grader/engine/paths.js";
import { WASM_FOLDER } from "./manifest.js";
import { SHARED_PACKAGES } from "./compile.js";
import { sharedModuleSource } from "./evaluate.js";
import type { CompiledFile } from "./protocol.js";
import { courseImportMeta, nodeShims } from "./plugins.js";
import { runPageHtml } from "./run-page-html.js";
import { trainFunctionHomes } from "./train-plan.js";
import type { TrainManifest } from "./train-protocol.js";

/** The training worker and page, as entry points of build.ts's worker and page bundles. */
export const TRAIN_WORKER_ENTRY = { "train-worker": join(ROOT, "tools", "browser", "train-worker.ts") };
export const TRAIN_PAGE_ENTRY = { "train-page": join(ROOT, "tools", "browser", "train-page.ts") };

/** The files of datasets/ the run reads (labs/lesson-7/data.ts's corpus, lib/tokenizer.ts's course tokenizer), as the worker's fs shim finds them. */
const TRAIN_DATA = ["datasets/tiny-corpus.txt", "datasets/tokenizer/tokenizer.json"];

/** tfjs-backend-wasm's .wasm files (plain, SIMD, threaded SIMD: the backend takes the best the browser allows). */
const WASM_FILES = ["tfjs-backend-wasm.wasm", "tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm"];

/** Copies tfjs-backend-wasm's .wasm files under `out`/WASM_FOLDER (backends.ts looks for them there). */
export function writeWasmBackendFiles(out: string): void {
  const from = join(ROOT, "node_modules", "@tensorflow", "tfjs-backend-wasm", "dist");
  mkdirSync(join(out, WASM_FOLDER), { recursive: true });
  for (const f of WASM_FILES) copyFileSync(join(from, f), join(out, WASM_FOLDER, f));
}

/**
 * The lessons whose references may go into the training pages: `asked` when given (lesson ids, or
 * "all": every graded lesson whose solutions/ this copy holds), else the student edition's published
 * lessons, else none (the full course publishes only when told: `--publish`, `--with-solutions`).
 */
export function publishedForTraining(asked?: readonly string[] | "all"): string[] {
  if (asked === "all") return gradedLessons().filter((l) => existsSync(join(paths.solutions, l)));
  if (asked) return [...asked];
  return readEditionInfo()?.published ?? [];
}

/** `--publish`'s value ("all", or lesson ids separated by commas) as publishedForTraining takes it; a string that is not one is an Error that says what is. */
export function parsePublish(text: string): readonly string[] | "all" {
  if (text.trim() === "all") return "all";
  const ids = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const graded = gradedLessons();
  const unknown = ids.filter((l) => !graded.includes(l));
  if (ids.length === 0 || unknown.length > 0) throw new Error(`--publish: ${unknown.join(", ") || "no lesson given"}: give "all" or graded lessons (${graded.join(", ")})`);
  return ids;
}

/** The packages the worker shares with lesson code (compile.ts's SHARED_PACKAGES) as evaluate.ts's stand-in modules, as learner files get them. */
function sharedPackages(): Plugin {
  const filter = new RegExp(`^(${SHARED_PACKAGES.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})$`);
  return {
    name: "course-shared-packages",
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: "course-shared" }));
      b.onLoad({ filter: /.*/, namespace: "course-shared" }, (args) => ({ contents: sharedModuleSource(args.path), loader: "js" }));
    },
  };
}

/** A published lesson's reference files compiled for the training worker (ES modules, as evaluate.ts imports them), or why it is withheld. */
async function compileReference(lesson: string, published: readonly string[]): Promise<CompiledFile[] | string> {
  const dir = join(paths.solutions, lesson);
  if (!existsSync(dir)) return `solutions/${lesson} is not in this copy of the course`;
  const files: CompiledFile[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
    const r = await build({
      entryPoints: [join(dir, file)],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: ROOT,
      plugins: [sharedPackages(), nodeShims(), courseImportMeta()],
    });
    const others = Object.keys(r.metafile.inputs)
      .map((k) => /^solutions\/(lesson-\d+)\//.exec(k)?.[1])
      .filter((l): l is string => l !== undefined && !published.includes(l));
    if (others.length > 0) return `its reference imports the reference of ${[...new Set(others)].join(", ")}, which is not published`;
    files.push({ file, code: r.outputFiles[0].text });
  }
  return files;
}

/**
 * Writes the compiled reference of each lesson of `needed` that is published into `out`/train/
 * (train/reference-<lesson>.json: the training pages share them) and lists it in `manifest`'s
 * references, or in its withheld with why (compileReference).
 */
export async function writeReferences(out: string, needed: readonly string[], published: readonly string[], manifest: Pick<TrainManifest, "references" | "withheld">, log: (line: string) => void): Promise<void> {
  mkdirSync(join(out, "train"), { recursive: true });
  for (const lesson of needed.filter((l) => published.includes(l))) {
    const compiled = await compileReference(lesson, published);
    if (typeof compiled === "string") {
      manifest.withheld[lesson] = compiled;
      log(`${lesson}'s reference withheld: ${compiled}`);
      continue;
    }
    const rel = `train/reference-${lesson}.json`;
    writeFileSync(join(out, rel), JSON.stringify(compiled));
    manifest.references[lesson] = rel;
  }
}

const TRAIN_HTML = runPageHtml({
  title: "Pretrain a tiny model in the browser",
  intro: `Lab 7's tiny pretraining (a 2-layer MiniMindTS on datasets/tiny-corpus.txt) in a Web Worker, on the
best TensorFlow.js backend this browser offers (webgpu, then webgl, then wasm, then cpu). The model runs your
functions where their lesson passes in this browser's workspace, the reference where this site publishes it,
and otherwise says which lesson to finish first. Self-study only: progress here lives in this browser and
proves nothing to anyone.`,
  steps: 100,
  charts: ["chart"],
  script: "./train-page.js",
});

/**
 * Writes the training page's files into `out` (the worker and page scripts come from build.ts's
 * bundles, TRAIN_WORKER_ENTRY and TRAIN_PAGE_ENTRY); `published` decides which references ship.
 */
export async function writeTrainPage(out: string, published: readonly string[], log: (line: string) => void = () => undefined): Promise<TrainManifest> {
  const functions = trainFunctionHomes(pretrainModelConfig(pretrainArgs("wasm"), courseTokenizer().vocabSize));
  const manifest: TrainManifest = { version: 1, worker: "train-worker.js", data: "train/data.json", functions, references: {}, withheld: {} };
  const needed = [...new Set(Object.values(functions))];
  await writeReferences(out, needed, published, manifest, (line) => log(`training page: ${line}`));
  const data = Object.fromEntries(TRAIN_DATA.map((f) => [`/${f}`, readFileSync(join(ROOT, f), "utf8")]));
  writeFileSync(join(out, manifest.data), JSON.stringify(data));
  writeWasmBackendFiles(out);
  writeFileSync(join(out, "train.html"), TRAIN_HTML);
  writeFileSync(join(out, "train.json"), JSON.stringify(manifest, null, 2));
  const shipped = Object.keys(manifest.references);
  log(`training page: references of ${shipped.join(", ") || "no lesson"} (published); ${needed.filter((l) => !shipped.includes(l)).join(", ") || "none"} must pass in the page`);
  return manifest;
}
