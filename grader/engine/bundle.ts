/**
 * Builds the program that runs a learner's code: one esbuild bundle of the lesson's cases, the
 * harness (learner-child.ts) and the learner's files, each file a chunk of its own so that one file
 * that fails to load does not stop the others. Bundling happens in the parent, before any learner
 * code runs, which gives three things:
 *
 * - the sandboxed process needs no TypeScript loader (tsx spawns esbuild, which the sandbox forbids);
 * - a syntax error is found once, with its file:line:column and the offending line;
 * - an import of the lesson's reference solution, of a known mistake, of the grader's own files or
 *   of a course module that computes one of the lesson's graded functions is refused here, where
 *   the learner's code cannot interfere;
 * - the exact contents of every learner file that went into the bundle are hashed as esbuild reads
 *   them, so the recorded verdict covers each of them (a helper file the lesson imports included).
 *
 * The bundle's folder also holds the only data files the learner's process may read: copies of the
 * lesson's fixtures with their expected values removed, and the tokenizer files cases build on.
 */
import { build, type Loader, type Message, type Metafile, type Plugin } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { PRELOADED_FUNCTIONS } from "../../lib/preloaded.js";
import { processAlive } from "../../lib/processes.js";
import { answerModuleRefusal } from "./answers.js";
import { FIXTURE_NAME, ROOT, casesFile, gradedLessons, lessonDir, paths } from "./paths.js";

export interface LearnerBundle {
  /** The bundle's entry file; run it with `node` (no loader). */
  entry: string;
  /** The bundle's folder: remove it with `dispose`. */
  dir: string;
  /** Exercise file → why it cannot be graded (syntax error, a refused import), phrased for the learner. */
  loadErrors: Map<string, string>;
  /**
   * Every learner file (not the course's own code) the bundle holds, absolute path → sha256 of the
   * contents esbuild bundled: the lesson's files and any file they import (another lesson's, a helper).
   */
  learnerInputs: Map<string, string>;
  dispose(): void;
}

/** Where bundles are built: `.grader-build/<pid>-<time>-<n>` (the pid of the process that built it). */
export const BUILD_DIR = join(ROOT, ".grader-build");

let counter = 0;

/** The generated entry's name (esbuild's stdin; as an importer it is `<ROOT>/<this>`, a name no file has). */
const ENTRY_FILE = "<course grading entry>";

/** The name bundleLearner gives a bundle's folder in BUILD_DIR: `<pid of the grading process>-<ms since 1970>-<counter>`. */
export const BUNDLE_NAME = /^(\d+)-\d+-\d+$/;

/**
 * Removes bundles left by grading processes that no longer run (a grader killed with SIGKILL cannot
 * clean up after itself). Only folders named BUNDLE_NAME in BUILD_DIR.
 */
export function removeStaleBundles(): void {
  if (!existsSync(BUILD_DIR)) return;
  for (const d of readdirSync(BUILD_DIR)) {
    const m = BUNDLE_NAME.exec(d);
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) rmSync(join(BUILD_DIR, d), { recursive: true, force: true });
  }
}

/**
 * Files whose import by learner code is refused: the lesson's reference (unless the reference is
 * what is being graded) and the known mistakes.
 */
function forbidden(lesson: string, file: string, gradingReference: boolean): string | undefined {
  const rel = relative(ROOT, file);
  if (!gradingReference && rel.startsWith(`solutions/${lesson}/`)) return `imports the reference solution (${rel}): a grade must come from your own code, so remove that import`;
  if (rel.startsWith("grader/")) return `imports a grader file (${rel}), which an exercise may not do`;
  return gradingReference ? undefined : answerModuleRefusal(lesson, file);
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** The module generated code imports `lendingResolver` and `yours` from. */
const SANDBOX_RESOLVER = join(ROOT, "grader", "engine", "sandbox-resolver.ts");

/**
 * What lib/resolver.ts becomes inside the sandbox (sandbox-resolver.ts's lendingResolver). An
 * exercise may use another lesson's function through the resolver (lesson 11 uses lesson 9's
 * rmsNorm); there, grading always hands it the other lesson's reference, so one lesson's grade
 * never depends on another's progress. In a student edition, where that reference is absent, it
 * hands the learner's own function of that lesson (which then has to be written first).
 */
function sandboxResolver(lesson: string, implDir: string): string {
  const workspace = dirname(implDir);
  const tsFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".ts")).sort().map((f) => join(dir, f)) : []);
  const loaders = gradedLessons()
    .filter((l) => l !== lesson)
    .map((l) => {
      const reference = tsFiles(join(paths.solutions, l));
      const files = reference.length > 0 ? reference : tsFiles(join(workspace, l));
      const source = reference.length > 0 ? "solutions" : "exercises";
      return `  ${JSON.stringify(l)}: { source: "${source}", files: [${files.map((f) => `() => import(${JSON.stringify(f)})`).join(", ")}] },`;
    });
  return [
    `import { lendingResolver } from ${JSON.stringify(SANDBOX_RESOLVER)};`,
    `export const { resolveFunction, resolveFunctions } = lendingResolver(${JSON.stringify(lesson)}, {\n${loaders.join("\n")}\n});`,
  ].join("\n");
}

/**
 * What lib/preloaded.ts becomes inside the sandbox: `preloadedFunction` for the lesson functions
 * synchronous course code asks for (PRELOADED_FUNCTIONS: in a student edition without lesson 4,
 * the tokenizer's encode and decode). Only a lesson whose reference is absent is asked for
 * (elsewhere lib/tokenizer.ts keeps its own code), so this hands the learner's function of that
 * lesson, imported statically, as the sandbox's resolver does; never the graded lesson's own.
 */
function sandboxPreloaded(lesson: string, implDir: string): string {
  const workspace = dirname(implDir);
  const imports: string[] = [`import { yours } from ${JSON.stringify(SANDBOX_RESOLVER)};`];
  const entries: string[] = [];
  for (const [home, names] of Object.entries(PRELOADED_FUNCTIONS)) {
    if (home === lesson || existsSync(join(paths.solutions, home))) continue;
    const dir = join(workspace, home);
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".ts")).sort() : [];
    const mods = files.map((f, i) => {
      const id = `m${imports.length - 1}_${i}`;
      imports.push(`import * as ${id} from ${JSON.stringify(join(dir, f))};`);
      return id;
    });
    for (const name of names) entries.push(`  ${JSON.stringify(`${home}/${name}`)}: [${JSON.stringify(home)}, ${JSON.stringify(name)}, [${mods.join(", ")}]],`);
  }
  return [
    ...imports,
    `const FUNCTIONS: Record<string, [string, string, Array<Record<string, unknown>>]> = {\n${entries.join("\n")}\n};`,
    `export function preloadedFunction(lesson: string, name: string) {`,
    `  const entry = FUNCTIONS[\`\${lesson}/\${name}\`];`,
    `  const fn = entry?.[2].map((m) => m[name]).find((f) => typeof f === "function");`,
    `  if (fn) return yours(fn, ${JSON.stringify(lesson)}, lesson, name);`,
    `  throw new Error(\`\${lesson}'s \${name} is not available while ${lesson} is graded\${entry ? \`: no file of your \${lesson} folder exports it\` : ""}\`);`,
    `}`,
  ].join("\n");
}

/** The course's own code (the grader, lib/), trusted to import what it needs; anything else is the learner's. */
function isCourseCode(file: string): boolean {
  return /^(grader|lib|tools|solutions|node_modules)\//.test(relative(ROOT, realPath(file)));
}

/**
 * Refuses an import of the lesson's reference or of the mutants by learner code, however the import
 * is spelled (relative, absolute, through a symlink). The course's own code may import them: a grader
 * builds a case's model with the lesson's other reference functions.
 */
function guard(lesson: string, implDir: string, gradingReference: boolean, learnerInputs: Map<string, string>): Plugin {
  const resolver = join(ROOT, "lib", "resolver.ts");
  const preloaded = join(ROOT, "lib", "preloaded.ts");
  return {
    name: "course-guard",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "guard" || args.namespace !== "file" || args.kind === "entry-point") return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "guard" });
        if (r.errors.length > 0 || r.external || !r.path) return r.errors.length > 0 ? { errors: r.errors } : undefined;
        if (r.path === resolver) return { path: "resolver", namespace: "course-sandbox" };
        if (r.path === preloaded) return { path: "preloaded", namespace: "course-sandbox" };
        // The entry (esbuild's stdin) is the grader's own.
        const why = args.importer !== join(ROOT, ENTRY_FILE) && !isCourseCode(args.importer) ? forbidden(lesson, realPath(r.path), gradingReference) : undefined;
        return why ? { errors: [{ text: why }] } : { path: r.path };
      });
      b.onLoad({ filter: /.*/, namespace: "course-sandbox" }, (args) => ({
        contents: args.path === "preloaded" ? sandboxPreloaded(lesson, implDir) : sandboxResolver(lesson, implDir),
        loader: "ts",
        resolveDir: ROOT,
      }));
      // A learner file is read here, once: what is hashed is exactly what is bundled.
      b.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (!loader || isCourseCode(args.path)) return undefined;
        const contents = readFileSync(args.path);
        learnerInputs.set(args.path, createHash("sha256").update(contents).digest("hex"));
        return { contents, loader };
      });
    },
  };
}

const LOADERS: Record<string, Loader> = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx", ".json": "json" };

/** Why a lesson folder cannot be graded as the learner's (it is, or resolves into, solutions/), else undefined. */
export function refusedLessonFolder(lesson: string, implDir: string): string | undefined {
  const real = realPath(implDir);
  const solutions = realPath(paths.solutions);
  if (real !== solutions && !real.startsWith(`${solutions}/`)) return undefined;
  return `${relative(ROOT, implDir) || implDir} resolves into solutions/ (${relative(ROOT, real)}): the grader grades your own files, so make ${lesson}'s folder a real folder of yours (npm run reset ${lesson} restores the stubs)`;
}

/** Why a lesson file cannot be bundled as the learner's (a symbolic link), else undefined. */
function refusedLessonFile(implDir: string, file: string): string | undefined {
  const full = join(implDir, file);
  try {
    if (!lstatSync(full).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  return `${relative(ROOT, full)} is a symbolic link: the grader grades only real files in your lesson folder, so replace the link with the file itself`;
}

/** Data files that cases read in the learner's process, besides the lesson's fixtures (copied as they are). */
export const LEARNER_DATA_FOLDERS = ["datasets/minimind-tokenizer", "datasets/tokenizer"];

/**
 * Writes, under `<dir>/data`, what the lesson's cases read in the learner's process: the lesson's
 * fixture files (`grader/<lesson>/fixture.json`, `fixture-*.json`) with every case's
 * `expected` removed, and the tokenizer files. Returns the data root the bundle is told about.
 */
function writeLearnerData(dir: string, lesson: string): string {
  const data = join(dir, "data");
  const fixturesIn = lessonDir(lesson);
  const fixturesOut = join(data, "grader", lesson);
  mkdirSync(fixturesOut, { recursive: true });
  if (existsSync(fixturesIn)) {
    for (const f of readdirSync(fixturesIn).filter((n) => FIXTURE_NAME.test(n))) {
      writeFileSync(join(fixturesOut, f), fixtureWithoutExpected(readFileSync(join(fixturesIn, f), "utf8")));
    }
  }
  for (const folder of LEARNER_DATA_FOLDERS) {
    const from = join(ROOT, folder);
    if (!existsSync(from)) continue;
    mkdirSync(join(data, folder), { recursive: true });
    for (const f of readdirSync(from)) if (lstatSync(join(from, f)).isFile()) copyFileSync(join(from, f), join(data, folder, f));
  }
  return data;
}

/** A fixture file's text as the learner's process gets it: every case's `expected` removed, every input bit kept. */
export function fixtureWithoutExpected(text: string): string {
  return exactJson(withoutExpected(JSON.parse(text)));
}

/** JSON text of a parsed JSON value, keeping −0 (JSON.stringify writes it as 0, which changes an input's bits). */
function exactJson(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(exactJson).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${exactJson(x)}`).join(",")}}`;
  return JSON.stringify(v);
}

/** A fixture document without its expected values: every case (an object in a list of cases) loses `expected`. */
function withoutExpected(doc: unknown): unknown {
  const strip = (cases: unknown) => (Array.isArray(cases) ? cases.map((c) => (c !== null && typeof c === "object" && !Array.isArray(c) ? Object.fromEntries(Object.entries(c).filter(([k]) => k !== "expected")) : c)) : cases);
  if (doc === null || typeof doc !== "object") return doc;
  const d = doc as Record<string, unknown>;
  const byExercise = (v: unknown) => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)])) : v);
  return "cases" in d ? { ...d, cases: byExercise(d.cases) } : byExercise(d);
}

/** One line a learner can act on, from an esbuild message. */
function describeMessage(m: Message): string {
  const loc = m.location;
  if (!loc) return m.text;
  const where = `${relative(ROOT, resolve(ROOT, loc.file))}:${loc.line}:${loc.column + 1}`;
  return `${where}: ${m.text}${loc.lineText ? `\n    ${loc.lineText.trim()}` : ""}`;
}

/** The exercise file (of `files`, under `implDir`) a message is about, if any. */
function fileOf(m: Message, implDir: string, files: readonly string[]): string | undefined {
  const paths = [m.location?.file, ...m.notes.map((n) => n.location?.file)].filter((p): p is string => !!p).map((p) => resolve(ROOT, p));
  for (const p of paths) {
    const f = files.find((x) => realPath(join(implDir, x)) === realPath(p));
    if (f) return f;
  }
  return undefined;
}

/**
 * The lesson's learner files (absolute real paths) that reach one of the lesson's answer modules
 * through the course's code (a learner file imports lib/model/model.ts, which imports
 * lib/model/fast-attention.ts), each with why, in the words of a direct refusal: "imports
 * lib/model/model.ts, which imports lib/model/fast-attention.ts, which computes lesson-11's …".
 * A direct import is refused while resolving (guard); this follows the bundle's import graph
 * (esbuild's metafile), never into the sandbox's resolver, which hands out other lessons' functions only.
 */
function answersReachedThroughCourseCode(lesson: string, meta: Metafile, learnerFiles: readonly string[]): Map<string, string> {
  const abs = (key: string) => (/^[\w-]+:/.test(key) ? undefined : realPath(resolve(key)));
  const keyOf = new Map<string, string>();
  for (const key of Object.keys(meta.inputs)) {
    const a = abs(key);
    if (a) keyOf.set(a, key);
  }
  const out = new Map<string, string>();
  for (const file of learnerFiles) {
    const start = keyOf.get(file);
    if (!start) continue;
    // Breadth first, so that the chain named is a shortest one.
    const via = new Map<string, string | null>([[start, null]]);
    const queue = [start];
    let found: { key: string; why: string } | undefined;
    while (queue.length > 0 && !found) {
      const key = queue.shift()!;
      for (const imp of meta.inputs[key]?.imports ?? []) {
        if (via.has(imp.path) || abs(imp.path) === undefined) continue;
        via.set(imp.path, key);
        const why = key === start ? undefined : answerModuleRefusal(lesson, abs(imp.path)!);
        if (why) {
          found = { key: imp.path, why };
          break;
        }
        queue.push(imp.path);
      }
    }
    if (!found) continue;
    const chain: string[] = [];
    for (let k: string | null = found.key; k !== null && k !== start; k = via.get(k) ?? null) chain.unshift(relative(ROOT, abs(k)!).split("\\").join("/"));
    const [first, ...rest] = chain;
    out.set(file, found.why.replace(/^imports [^\s,]+/, `imports ${first}${rest.map((c) => `, which imports ${c}`).join("")}`));
  }
  return out;
}

/**
 * Bundles the grader of `lesson` with the learner files `files` (names under `implDir`). A file that
 * cannot be bundled is left out and named in `loadErrors`; the others are bundled without it.
 */
export async function bundleLearner(lesson: string, implDir: string, files: readonly string[]): Promise<LearnerBundle> {
  removeStaleBundles();
  // Two levels below the root, like grader/engine/: modules that find the root from import.meta.url still do.
  const dir = join(BUILD_DIR, `${process.pid}-${Date.now()}-${counter++}`);
  mkdirSync(dir, { recursive: true });
  const loadErrors = new Map<string, string>();
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  const gradingReference = realPath(implDir) === realPath(join(paths.solutions, lesson));
  for (const f of files) {
    const why = refusedLessonFile(implDir, f);
    if (why) loadErrors.set(f, why);
  }
  let remaining = files.filter((f) => !loadErrors.has(f));
  const learnerInputs = new Map<string, string>();
  try {
    const dataRoot = writeLearnerData(dir, lesson);
    for (;;) {
      learnerInputs.clear();
      const loaders = remaining.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(join(implDir, f))}),`).join("\n");
      const contents = [
        `import grader from ${JSON.stringify(casesFile(lesson))};`,
        `import { runLearnerChild } from ${JSON.stringify(join(ROOT, "grader", "engine", "learner-child.ts"))};`,
        `await runLearnerChild(grader, {\n${loaders}\n}, ${JSON.stringify(implDir)});`,
      ].join("\n");
      const built = await build({
        stdin: { contents, resolveDir: ROOT, sourcefile: ENTRY_FILE, loader: "ts" },
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "node",
        target: "node20",
        outdir: dir,
        entryNames: "entry",
        // .mjs: ESM without a package.json scope lookup, which the learner's process may not read.
        outExtension: { ".js": ".mjs" },
        define: { __COURSE_LEARNER_DATA__: JSON.stringify(dataRoot) },
        sourcemap: "inline",
        packages: "external",
        logLevel: "silent",
        write: true,
        metafile: true,
        plugins: [guard(lesson, implDir, gradingReference, learnerInputs)],
      }).then(
        (r) => r.metafile,
        (err: { errors?: Message[] }) => err.errors ?? [{ text: String(err), location: null, notes: [], id: "", pluginName: "", detail: undefined }],
      );
      if (!Array.isArray(built)) {
        const indirect = gradingReference ? new Map<string, string>() : answersReachedThroughCourseCode(lesson, built, remaining.map((f) => realPath(join(implDir, f))));
        if (indirect.size === 0) return { entry: join(dir, "entry.mjs"), dir, loadErrors, learnerInputs, dispose };
        for (const f of remaining) {
          const why = indirect.get(realPath(join(implDir, f)));
          if (why) loadErrors.set(f, `${relative(ROOT, join(implDir, f))} ${why}`);
        }
        remaining = remaining.filter((f) => !loadErrors.has(f));
        continue;
      }
      const result = built;
      const blamed = new Set<string>();
      for (const m of result) {
        const f = fileOf(m, implDir, remaining);
        if (!f) continue;
        blamed.add(f);
        const shown = relative(ROOT, join(implDir, f));
        const text = describeMessage(m);
        loadErrors.set(f, text.startsWith("imports ") ? `${shown} ${text}` : `${shown} could not be loaded: ${text}`);
      }
      if (blamed.size === 0) throw new Error(`grader bug: the grading bundle failed: ${result.map(describeMessage).join("; ")}`);
      remaining = remaining.filter((f) => !blamed.has(f));
    }
  } catch (err) {
    dispose();
    throw err;
  }
}
