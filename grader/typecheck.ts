/**
 * Type-checks a learner's lesson files with the course's tsconfig, as warnings beside the verdict
 * (never a failure on its own: the grader judges what the code computes). TypeScript takes seconds
 * to load the course's types, so the check runs in a process of its own beside grading, and its
 * result is cached by the files' contents: a re-grade of unchanged files reads it at once, and a
 * check that is not finished when grading is stays running and fills the cache for the next grade.
 *
 *   node --import tsx grader/typecheck.ts <cache-file> <file>…   (the checking process)
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./engine/paths.js";

export interface TypeWarning {
  /** exercises/lesson-23/ppo.ts:12:5 */
  location: string;
  message: string;
}

export type TypeCheck = { state: "done"; warnings: TypeWarning[] } | { state: "running" };

const CACHE_DIR = join(ROOT, "node_modules", ".cache", "course-typecheck");

/** The cache file for these files' current contents (and the course's tsconfig). */
function cacheFile(files: readonly string[]): string {
  const h = createHash("sha256");
  for (const f of [join(ROOT, "tsconfig.json"), ...files]) h.update(f).update("\0").update(existsSync(f) ? readFileSync(f) : "missing").update("\0");
  return join(CACHE_DIR, `${h.digest("hex").slice(0, 24)}.json`);
}

/**
 * Starts (or reads from the cache) the type check of `files`; the promise settles with the warnings,
 * or with "running" when `deadline` resolves first (the check then finishes in the background).
 */
export function typeCheck(files: readonly string[], deadline: Promise<unknown>): Promise<TypeCheck> {
  const cache = cacheFile(files);
  if (existsSync(cache)) {
    try {
      return Promise.resolve({ state: "done", warnings: JSON.parse(readFileSync(cache, "utf8")) as TypeWarning[] });
    } catch {
      // A damaged cache entry is checked again.
    }
  }
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), cache, ...files], { stdio: "ignore", detached: true, cwd: ROOT });
  child.unref();
  const finished = new Promise<TypeCheck>((resolve) => {
    child.once("exit", () => {
      try {
        resolve({ state: "done", warnings: JSON.parse(readFileSync(cache, "utf8")) as TypeWarning[] });
      } catch {
        resolve({ state: "done", warnings: [] });
      }
    });
  });
  return Promise.race([finished, deadline.then((): TypeCheck => ({ state: "running" }))]);
}

/** The checking process: writes the files' type errors to the cache file. */
async function checkAndCache(cache: string, files: string[]): Promise<void> {
  const ts = (await import("typescript")).default;
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(files, { ...parsed.options, noEmit: true });
  const warnings: TypeWarning[] = [];
  for (const f of files) {
    const source = program.getSourceFile(f);
    if (!source) continue;
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
      warnings.push({ location: `${relative(ROOT, f)}:${line + 1}:${character + 1}`, message: ts.flattenDiagnosticMessageText(d.messageText, " ") });
    }
  }
  mkdirSync(dirname(cache), { recursive: true });
  const tmp = `${cache}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(warnings));
  renameSync(tmp, cache);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [cache, ...files] = process.argv.slice(2);
  await checkAndCache(cache, files);
}
