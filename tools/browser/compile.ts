/**
 * Compiles a learner's lesson files in the page with esbuild-wasm, each file on its own (so one
 * that fails to compile does not stop the others), bundled with the course's lib/ modules it
 * imports. Imports resolve only against a virtual file table: the learner's files of the lesson,
 * the learner's files of other lessons the page was given (`others`: what `../lesson-4/x.js`
 * reads, as in a clone's exercises/), and the lib/ sources the build wrote (LibTable). An import of
 * the reference (solutions/), of the grader's files, or of a course module that computes one of
 * the lesson's graded functions (directly or through other course modules) is refused with the
 * sentences the Node grader uses (grader/engine/bundle.ts).
 *
 * The output is an ES module (the worker imports it, evaluate.ts's importCompiled), so a top-level
 * await works; TensorFlow.js and lib/resolver.ts are the worker's own (stand-in modules read them,
 * evaluate.ts): the worker's resolver (shims/resolver.ts) is the Node sandbox's, lending the
 * learner's files of other lessons that the page compiled and sent. `format: "cjs"` (the training
 * page's) keeps TensorFlow.js an external `require` and the real lib/resolver.ts.
 */
import type { Message, Metafile, Plugin } from "esbuild-wasm";
import * as esbuild from "esbuild-wasm/esm/browser.js";
import { dirname, join, relative, resolve } from "./shims/path.js";
import { SHARED_RESOLVER, sharedModuleSource } from "./evaluate.js";
import type { CompiledFile } from "./protocol.js";

/** The lib/ sources learner code may import, as the build wrote them, and which of them are refused per lesson. */
export interface LibTable {
  /** Root-relative path ("lib/tf.ts") → source text. */
  files: Record<string, string>;
  /** Lesson → root-relative path → why importing it is refused while that lesson is graded (answers.ts's words). */
  refused: Record<string, Record<string, string>>;
  /** Node built-in ("fs") → the root-relative path of its browser stand-in in `files` (tools/browser/shims/). */
  builtins: Record<string, string>;
}

/** Packages the worker shares with learner code (evaluate.ts's shared modules). */
export const SHARED_PACKAGES = ["@tensorflow/tfjs"];

let ready: Promise<void> | undefined;

/** Starts esbuild-wasm once (its own worker), from the wasm file at `wasmURL`. */
export function startCompiler(wasmURL: string): Promise<void> {
  ready ??= esbuild.initialize({ wasmURL, worker: true });
  return ready;
}

const NAMESPACE = "course-virtual";
/** The stand-ins that are no file of the table: shared packages and the resolver (never followed for answer modules, as in bundle.ts). */
const STAND_IN = "course-stand-in";
/** The learner's files live under this folder, a lesson a subfolder (implDirOf). */
const EXERCISES = "/exercises";

/** Learner files by lesson, then by file name ("lesson-4" → "chat-template.ts" → text). */
export type LessonFiles = Record<string, Record<string, string>>;

export interface CompileOptions {
  /** "esm" (the grading worker's, default) or "cjs" (the training worker's evaluateModule). */
  format?: "esm" | "cjs";
  /** The learner's files of other lessons: what relative imports of them read. */
  others?: LessonFiles;
}

/** The expression replaced in learner modules, spelled so that the build's own replacement (plugins.ts) leaves this file alone. */
const IMPORT_META_URL = ["import", "meta", "url"].join(".");

/** The file a path names in the table, trying TypeScript's spellings (".js" for ".ts", no extension, a folder's index). */
function lookUp(abs: string, has: (p: string) => boolean): string | undefined {
  const tries = [abs, abs.replace(/\.js$/, ".ts"), abs.replace(/\.mjs$/, ".mts"), `${abs}.ts`, `${abs}/index.ts`];
  return tries.find(has);
}

/** The text of a path of the table: a learner file of this lesson or another, or a lib/ source. */
function tableText(implDir: string, files: Record<string, string>, others: LessonFiles, lib: LibTable): (p: string) => string | undefined {
  return (p) => {
    if (p.startsWith(`${implDir}/`)) return files[p.slice(implDir.length + 1)];
    const other = new RegExp(`^${EXERCISES}/(lesson-\\d+)/([^/]+)$`).exec(p);
    return other ? others[other[1]]?.[other[2]] : lib.files[p.slice(1)];
  };
}

function virtualFiles(lesson: string, implDir: string, files: Record<string, string>, lib: LibTable, opts: CompileOptions): Plugin {
  const others = opts.others ?? {};
  const text = tableText(implDir, files, others, lib);
  const refused = lib.refused[lesson] ?? {};
  const esm = opts.format !== "cjs";
  const learnerFile = (p: string) => p.startsWith(`${EXERCISES}/`);
  return {
    name: "course-virtual-files",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return { path: args.path, namespace: NAMESPACE };
        if (!args.path.startsWith(".") && !args.path.startsWith("/")) {
          if (SHARED_PACKAGES.includes(args.path)) return esm ? { path: args.path, namespace: STAND_IN } : { path: args.path, external: true };
          const builtin = lib.builtins[args.path.replace(/^node:/, "")];
          if (builtin) return { path: `/${builtin}`, namespace: NAMESPACE };
          return { errors: [{ text: `imports ${args.path}, a package that grading in the browser does not have` }] };
        }
        const abs = resolve(dirname(args.importer), args.path);
        const rel = relative("/", abs);
        const fromLearner = learnerFile(args.importer);
        if (fromLearner && rel.startsWith(`solutions/${lesson}/`)) return { errors: [{ text: `imports the reference solution (${rel.replace(/\.js$/, ".ts")}): a grade must come from your own code, so remove that import` }] };
        if (fromLearner && rel.startsWith("grader/")) return { errors: [{ text: `imports a grader file (${rel.replace(/\.js$/, ".ts")}), which an exercise may not do` }] };
        const found = lookUp(abs, (p) => text(p) !== undefined);
        if (!found) return { errors: [{ text: `imports ${rel}, which grading in the browser does not have (only this lesson's files, the other lessons' files it was given and the course's lib/ modules that exercises use)` }] };
        const why = fromLearner ? refused[found.slice(1)] : undefined;
        if (why) return { errors: [{ text: why }] };
        if (esm && found === SHARED_RESOLVER) return { path: found, namespace: STAND_IN };
        return { path: found, namespace: NAMESPACE };
      });
      b.onLoad({ filter: /.*/, namespace: STAND_IN }, (args) => ({ contents: sharedModuleSource(args.path), loader: "js" }));
      // `import.meta.url` becomes the module's own file URL (CommonJS output has no import.meta), as in the worker's bundles.
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: (text(args.path) ?? "").split(IMPORT_META_URL).join(JSON.stringify(`file://${args.path}`)),
        loader: args.path.endsWith(".js") ? "js" : "ts",
        resolveDir: dirname(args.path),
      }));
    },
  };
}

/** One line a learner can act on, from an esbuild message (bundle.ts's describeMessage). */
function describeMessage(m: Message): string {
  const loc = m.location;
  if (!loc) return m.text;
  const file = loc.file.replace(new RegExp(`^${NAMESPACE}:`), "");
  const where = `${relative("/", file)}:${loc.line}:${loc.column + 1}`;
  return `${where}: ${m.text}${loc.lineText ? `\n    ${loc.lineText.trim()}` : ""}`;
}

/**
 * The first answer module the file reaches through the course's code (a lib/ module that imports
 * one), as bundle.ts words it: "imports lib/a.ts, which imports lib/b.ts, which computes …".
 */
function answerReachedThroughCourseCode(meta: Metafile, start: string, refused: Record<string, string>): string | undefined {
  const key = (p: string) => `${NAMESPACE}:${p}`;
  const via = new Map<string, string | null>([[key(start), null]]);
  const queue = [key(start)];
  while (queue.length > 0) {
    const k = queue.shift()!;
    for (const imp of meta.inputs[k]?.imports ?? []) {
      if (via.has(imp.path) || !imp.path.startsWith(`${NAMESPACE}:/`)) continue;
      via.set(imp.path, k);
      const why = k === key(start) ? undefined : refused[imp.path.slice(NAMESPACE.length + 2)];
      if (why) {
        const chain: string[] = [];
        for (let c: string | null = imp.path; c !== null && c !== key(start); c = via.get(c) ?? null) chain.unshift(c.slice(NAMESPACE.length + 2));
        const [first, ...rest] = chain;
        return why.replace(/^imports [^\s,]+/, `imports ${first}${rest.map((c) => `, which imports ${c}`).join("")}`);
      }
      queue.push(imp.path);
    }
  }
  return undefined;
}

/**
 * Compiles each of `files` (name under the lesson folder → text) to an ES module (or CommonJS, when
 * asked), or says why it cannot be graded, in the words of the Node grader's load errors
 * ("exercises/lesson-3/x.ts could not be loaded: …", "… imports the reference solution …").
 */
export async function compileLearnerFiles(lesson: string, implDir: string, files: Record<string, string>, lib: LibTable, opts: CompileOptions = {}): Promise<CompiledFile[]> {
  const out: CompiledFile[] = [];
  for (const file of Object.keys(files).filter((f) => f.endsWith(".ts")).sort()) {
    const entry = join(implDir, file);
    const shown = relative("/", entry);
    try {
      const r = await esbuild.build({
        entryPoints: [entry],
        bundle: true,
        format: opts.format ?? "esm",
        platform: "browser",
        target: "es2022",
        write: false,
        metafile: true,
        logLevel: "silent",
        sourcemap: "inline",
        sourcesContent: false,
        plugins: [virtualFiles(lesson, implDir, files, lib, opts)],
      });
      const indirect = answerReachedThroughCourseCode(r.metafile!, entry, lib.refused[lesson] ?? {});
      if (indirect) out.push({ file, error: `${shown} ${indirect}` });
      else out.push({ file, code: r.outputFiles![0].text });
    } catch (err) {
      const errors = (err as { errors?: Message[] }).errors;
      const first = errors?.[0];
      const text = first ? describeMessage(first) : String(err);
      out.push({ file, error: text.startsWith("imports ") ? `${shown} ${text}` : `${shown} could not be loaded: ${text}` });
    }
  }
  return out;
}
