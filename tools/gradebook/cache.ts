/**
 * The grading cache (`<out>/gradebook-cache.json`): a learner's lesson is graded again only when
 * something it was graded on changed. An entry is keyed on
 *
 * - the course: a hash of every course module the lesson's grading imports (followed from the
 *   engine, the lesson's cases, mutants, hints and reference solution through their relative
 *   imports: an edit to an unrelated part of lib/ keeps the cache), the lesson's grader folder, the
 *   tokenizer files cases read,
 *   package-lock.json, the course version (package.json), and the gradebook's own modules that
 *   word the kept results (jobs.ts, submissions.ts);
 * - the grading settings: the case time limit and the secret's hash (the hidden cases; never the
 *   secret itself);
 * - the learner's inputs: every file of the learner's lesson folder, and every other learner file
 *   the lesson's bundle held the last time (bundle.ts records them: a helper of another lesson).
 *
 * A lesson that could not be graded (not graded, the wall limit) is never kept: it is tried again.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import type { LessonGrade } from "./jobs.js";
import type { Learner } from "./submissions.js";

export const CACHE_FILE = "gradebook-cache.json";
const FORMAT = 1;

interface Entry {
  key: string;
  /** Learner files outside the lesson folder the bundle held, relative to the learner's lesson folders' parent. */
  extra: string[];
  inputs: string;
  grade: LessonGrade;
}

function hashTree(h: ReturnType<typeof createHash>, dir: string, base: string, depth = 0): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir).sort()) {
    if (e === "node_modules" || e === ".git") continue;
    const p = join(dir, e);
    const st = lstatSync(p);
    if (st.isDirectory() && depth < 12) hashTree(h, p, base, depth + 1);
    else if (st.isFile()) h.update(`${relative(base, p)}\0`).update(readFileSync(p)).update("\0");
    else if (st.isSymbolicLink()) h.update(`${relative(base, p)}\0link\0`);
  }
}

const courseHashes = new Map<string, string>();

/** Relative import specifiers of a module's text (static, re-exports, dynamic with a literal). */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** `start` and every course module it reaches through relative imports (".js" read as the ".ts" beside it). */
function importClosure(start: readonly string[]): string[] {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file) || !existsSync(file) || !lstatSync(file).isFile()) continue;
    seen.add(file);
    if (!/\.(ts|mts|js|mjs)$/.test(file)) continue;
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = join(dirname(file), m[1]);
      const ts = target.replace(/\.(m?)js$/, ".$1ts");
      todo.push(existsSync(ts) ? ts : target);
    }
  }
  return [...seen].sort();
}

/** Files of a folder, one level deep. */
const filesOf = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)).filter((f) => lstatSync(f).isFile()) : []);

/** The hash of the course as it grades `lesson`. */
export function courseFingerprint(lesson: string): string {
  let f = courseHashes.get(lesson);
  if (f) return f;
  const h = createHash("sha256");
  hashTree(h, join(ROOT, "grader", lesson), ROOT);
  // The data files cases read in the learner's process (bundle.ts copies these beside its bundle).
  for (const d of ["datasets/minimind-tokenizer", "datasets/tokenizer"]) hashTree(h, join(ROOT, d), ROOT);
  const roots = [...filesOf(join(ROOT, "grader", "engine")), ...filesOf(join(ROOT, "grader", lesson)), ...filesOf(join(ROOT, "solutions", lesson)), join(ROOT, "grader", "functions.ts")];
  for (const file of importClosure(roots)) h.update(`${relative(ROOT, file)}\0`).update(readFileSync(file)).update("\0");
  // jobs.ts words the results kept (paths as the learner's, a missing file's near-misses): its changes count too.
  for (const file of ["package.json", "package-lock.json", "grader/functions.ts", "tools/gradebook/jobs.ts", "tools/gradebook/submissions.ts"]) if (existsSync(join(ROOT, file))) h.update(file).update(readFileSync(join(ROOT, file)));
  f = h.digest("hex");
  courseHashes.set(lesson, f);
  return f;
}

/** The hash of a learner's inputs to `lesson`: the lesson folder, and the `extra` files beside it. */
function learnerInputs(learner: Learner, lesson: string, extra: readonly string[]): string {
  const h = createHash("sha256");
  if (!learner.lessonsDir) return h.update("nothing submitted").digest("hex");
  hashTree(h, join(learner.lessonsDir, lesson), learner.lessonsDir);
  for (const rel of [...extra].sort()) {
    const p = join(learner.lessonsDir, rel);
    h.update(`${rel}\0`);
    try {
      if (lstatSync(p).isFile()) h.update(readFileSync(p));
      else h.update("not a file");
    } catch {
      h.update("absent");
    }
  }
  return h.digest("hex");
}

export class GradingCache {
  private entries: Record<string, Entry> = {};
  private used = new Set<string>();
  /** Learner-lessons taken from the cache this run. */
  hits = 0;

  constructor(private readonly file: string | undefined) {
    if (!file || !existsSync(file)) return;
    try {
      const data = JSON.parse(readFileSync(file, "utf8")) as { format?: number; entries?: Record<string, Entry> };
      if (data.format === FORMAT && data.entries) this.entries = data.entries;
    } catch {
      // an unreadable cache is an empty one
    }
  }

  private static id(learner: Learner, lesson: string): string {
    return `${learner.name}\u0000${lesson}`;
  }

  /** The grade kept for this learner's lesson when nothing it depends on changed, else undefined. */
  get(learner: Learner, lesson: string, settings: string): LessonGrade | undefined {
    const id = GradingCache.id(learner, lesson);
    const e = this.entries[id];
    if (!e || e.key !== `${courseFingerprint(lesson)} ${settings}`) return undefined;
    if (e.inputs !== learnerInputs(learner, lesson, e.extra)) return undefined;
    this.used.add(id);
    this.hits++;
    return { ...e.grade, cached: true };
  }

  /** Keeps a fresh grade (one with verdicts); `bundled` are the learner files its bundle held, relative to the lesson folders' parent. */
  put(learner: Learner, lesson: string, settings: string, grade: LessonGrade, bundled: readonly string[]): void {
    if (grade.problem || !learner.lessonsDir) return;
    const id = GradingCache.id(learner, lesson);
    const extra = bundled.filter((rel) => !rel.startsWith(`${lesson}/`) && !rel.startsWith("..") && !rel.startsWith("/"));
    this.entries[id] = { key: `${courseFingerprint(lesson)} ${settings}`, extra, inputs: learnerInputs(learner, lesson, extra), grade: { ...grade, cached: undefined } };
    this.used.add(id);
  }

  /** Writes every entry (those of learners or lessons not graded this run too). */
  save(): void {
    if (!this.file) return;
    const kept = this.entries;
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ format: FORMAT, entries: kept }));
    renameSync(tmp, this.file);
  }
}
