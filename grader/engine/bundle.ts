/**
 * Builds the program that runs a learner's code: one esbuild bundle of the lesson's cases, the
 * harness (learner-child.ts) and the learner's files, each file a chunk of its own so that one file
 * that fails to load does not stop the others. Bundling happens in the parent, before any learner
 * code runs, which gives three things:
 *
 * - the sandboxed process needs no TypeScript loader (tsx spawns esbuild, which the sandbox forbids);
 * - a syntax error is found once, with its file:line:column and the offending line;
 * - an import of the lesson's reference solution or of a known mistake is refused here, where the
 *   learner's code cannot interfere.
 */
import { build, type Message, type Plugin } from "esbuild";
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, gradedLessons, paths } from "./paths.js";

export interface LearnerBundle {
  /** The bundle's entry file; run it with `node` (no loader). */
  entry: string;
  /** The bundle's folder: remove it with `dispose`. */
  dir: string;
  /** Exercise file → why it cannot be graded (syntax error, a refused import), phrased for the learner. */
  loadErrors: Map<string, string>;
  dispose(): void;
}

let counter = 0;

/**
 * Files whose import by learner code is refused: the lesson's reference (unless the reference is
 * what is being graded) and the known mistakes.
 */
function forbidden(lesson: string, file: string, gradingReference: boolean): string | undefined {
  const rel = relative(ROOT, file);
  if (!gradingReference && rel.startsWith(`solutions/${lesson}/`)) return `imports the reference solution (${rel}): a grade must come from your own code, so remove that import`;
  if (rel.startsWith("grader/mutants/")) return `imports a grader file (${rel}), which an exercise may not do`;
  return undefined;
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * What lib/resolver.ts becomes inside the sandbox. An exercise may use another lesson's function
 * through the resolver (lesson 11 uses lesson 9's rmsNorm); there, grading always hands it the
 * other lesson's reference, so one lesson's grade never depends on another's progress. In a student
 * edition, where that reference is absent, it hands the learner's own function of that lesson (which
 * then has to be written first). The real resolver grades and imports at run time, which the sandbox
 * cannot do; this one is bundled.
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
    `type Loaded = Record<string, unknown>;`,
    `const LESSONS: Record<string, { source: string; files: Array<() => Promise<Loaded>> }> = {\n${loaders.join("\n")}\n};`,
    `export async function resolveFunction(lesson: string, name: string) {`,
    `  const entry = LESSONS[lesson];`,
    `  for (const load of entry?.files ?? []) {`,
    `    const mod = await load();`,
    `    const fn = mod[name];`,
    `    if (typeof fn !== "function") continue;`,
    `    if (entry.source === "solutions") return { fn, source: "solutions", why: "the reference, while ${lesson} is graded" };`,
    `    // Yours: a stub there says which lesson to finish first, instead of "not implemented" here.`,
    `    const yours = (...args: unknown[]) => {`,
    `      try {`,
    `        return (fn as (...a: unknown[]) => unknown)(...args);`,
    `      } catch (err) {`,
    `        if (err instanceof Error && err.name === "NotImplementedError") throw new Error(\`${lesson} uses \${name} from \${lesson}, which you have not written yet: finish \${lesson} first (npm run grade \${lesson})\`);`,
    `        throw err;`,
    `      }`,
    `    };`,
    `    return { fn: yours, source: "exercises", why: "yours (no reference in this edition)" };`,
    `  }`,
    `  throw new Error(\`\${lesson}'s \${name} is not available while ${lesson} is graded: an exercise may use other lessons' functions only\`);`,
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
function guard(lesson: string, implDir: string, gradingReference: boolean): Plugin {
  const resolver = join(ROOT, "lib", "resolver.ts");
  return {
    name: "course-guard",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "guard" || args.namespace !== "file" || args.kind === "entry-point") return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "guard" });
        if (r.errors.length > 0 || r.external || !r.path) return r.errors.length > 0 ? { errors: r.errors } : undefined;
        if (r.path === resolver) return { path: "resolver", namespace: "course-sandbox" };
        const why = args.importer !== "" && !isCourseCode(args.importer) ? forbidden(lesson, realPath(r.path), gradingReference) : undefined;
        return why ? { errors: [{ text: why }] } : { path: r.path };
      });
      b.onLoad({ filter: /.*/, namespace: "course-sandbox" }, () => ({ contents: sandboxResolver(lesson, implDir), loader: "ts", resolveDir: ROOT }));
    },
  };
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
 * Bundles the grader of `lesson` with the learner files `files` (names under `implDir`). A file that
 * cannot be bundled is left out and named in `loadErrors`; the others are bundled without it.
 */
export async function bundleLearner(lesson: string, implDir: string, files: readonly string[]): Promise<LearnerBundle> {
  // Two levels below the root, like grader/engine/: modules that find the root from import.meta.url still do.
  const dir = join(ROOT, ".grader-build", `${process.pid}-${Date.now()}-${counter++}`);
  mkdirSync(dir, { recursive: true });
  const loadErrors = new Map<string, string>();
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  let remaining = [...files];
  const gradingReference = realPath(implDir) === realPath(join(paths.solutions, lesson));
  try {
    for (;;) {
      const loaders = remaining.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(join(implDir, f))}),`).join("\n");
      const contents = [
        `import grader from ${JSON.stringify(join(paths.graders, `${lesson}.ts`))};`,
        `import { runLearnerChild } from ${JSON.stringify(join(ROOT, "grader", "engine", "learner-child.ts"))};`,
        `await runLearnerChild(grader, {\n${loaders}\n}, ${JSON.stringify(implDir)});`,
      ].join("\n");
      const result = await build({
        stdin: { contents, resolveDir: ROOT, sourcefile: "grading-entry.ts", loader: "ts" },
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "node",
        target: "node20",
        outdir: dir,
        entryNames: "entry",
        sourcemap: "inline",
        packages: "external",
        logLevel: "silent",
        write: true,
        plugins: [guard(lesson, implDir, gradingReference)],
      }).then(
        () => undefined,
        (err: { errors?: Message[] }) => err.errors ?? [{ text: String(err), location: null, notes: [], id: "", pluginName: "", detail: undefined }],
      );
      if (result === undefined) return { entry: join(dir, "entry.js"), dir, loadErrors, dispose };
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
