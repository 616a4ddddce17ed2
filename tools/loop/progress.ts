/**
 * The learner's progress: one small JSON file (.course-progress.json, ignored by git) holding, per
 * lesson, the verdict of each function at the last grading and a hash of the files that were
 * graded, and the hints revealed so far.
 *
 * Safety, because this file sits beside the learner's work:
 * - Its path is checked first (locations.ts checkProgressPath), and an existing file that is not a
 *   progress file of this course (valid JSON of another shape: package.json, a config) is refused
 *   with a UsageError, never overwritten.
 * - The whole file is validated with a schema (zod). A record that does not fit (`"lessons": []`,
 *   `functions: null`, a null verdict, a wrong type) is reported and dropped, so that lesson is
 *   graded afresh; the valid records beside it survive. Nothing in it can crash a command.
 * - A file that cannot be read at all (not JSON: a truncated write from an older version, an
 *   editor's accident), or one from which records were dropped, is kept as
 *   `<file>.corrupt-<timestamp>` before it is first replaced.
 * - Writes are atomic (a temporary and a rename), and every read-modify-write holds a lock file
 *   (`<file>.lock`, made with O_EXCL, holding its owner's pid and time), so that concurrent
 *   gradings of different lessons keep every record. A lock whose process is gone, or older than
 *   any update takes, is stale and broken.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, copyFileSync, existsSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { casesFile, paths } from "../../grader/engine/paths.js";
import type { FunctionSummary, FunctionVerdict } from "../../grader/engine/summary.js";
import { processAlive } from "../../lib/processes.js";
import { writeFileAtomic } from "../workspace.js";
import { UsageError } from "./cli-support.js";
import { checkProgressPath, lessonExercisesDir, progressFile, shown } from "./locations.js";

/** Every verdict the grader gives. The check below fails to compile when summary.ts adds one. */
const VERDICTS = ["passed", "failed", "not-implemented", "error", "timeout"] as const satisfies readonly FunctionVerdict[];
type Exhaustive<T extends never> = T;
export type _EveryVerdictIsKnown = Exhaustive<Exclude<FunctionVerdict, (typeof VERDICTS)[number]>>;

const count = z.number().int().nonnegative();

const FunctionRecordSchema = z
  .object({ verdict: z.enum(VERDICTS), passed: count, total: count })
  .refine((f) => f.passed <= f.total, { message: "passed is more than total" });

const LessonRecordSchema = z.object({
  hash: z.string(),
  gradedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: "not a date" }),
  functions: z.record(z.string(), FunctionRecordSchema),
  fatal: z.string().optional(),
  inputs: z.array(z.string()).optional(),
});

const LessonHintsSchema = z.record(z.string(), count);

/** The file's outer shape: what makes a JSON file a progress file of this course at all. */
const ProgressFileSchema = z.object({ version: z.literal(1) }).passthrough();

/** A plain JSON object (not an array, not null), whose entries are checked one by one. */
const Entries = z.record(z.string(), z.unknown());

export type FunctionRecord = z.infer<typeof FunctionRecordSchema>;

export interface LessonRecord {
  /** Hash of the learner's files and the lesson's grader and solutions when it was graded. */
  hash: string;
  /** ISO time of the grading. */
  gradedAt: string;
  /** Function name → its verdict, in the grader's order. Empty when grading could not run. */
  functions: Record<string, FunctionRecord>;
  /** Why grading could not run, when it could not. */
  fatal?: string;
  /**
   * Learner files outside the lesson's folder that its bundle included (another lesson's file, a
   * helper it imports), relative to the course root: the hash covers them too.
   */
  inputs?: string[];
}

export interface Progress {
  version: 1;
  lessons: Record<string, LessonRecord>;
  /** Lesson → function → number of hint tiers revealed. */
  hints: Record<string, Record<string, number>>;
}

export function emptyProgress(): Progress {
  return { version: 1, lessons: {}, hints: {} };
}

/** What was found on disk. */
export interface LoadedProgress {
  progress: Progress;
  /**
   * missing: no file; ok: every record valid; repaired: records were dropped (see problems);
   * unreadable: not JSON, so nothing could be kept.
   */
  state: "missing" | "ok" | "repaired" | "unreadable";
  problems: string[];
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`).join("; ");
}

/**
 * Validates a parsed progress file record by record. Throws a UsageError when the JSON is not a
 * progress file of this course at all (so that it is never overwritten).
 */
export function parseProgress(data: unknown, label: string): LoadedProgress {
  const outer = ProgressFileSchema.safeParse(data);
  if (!outer.success) {
    throw new UsageError(
      `${label} is not a progress file of this course (${describe(outer.error)}), so it is left alone. Point COURSE_PROGRESS_FILE at a new .json file, or move that file away.`,
    );
  }
  const raw = outer.data as Record<string, unknown>;
  const progress = emptyProgress();
  const problems: string[] = [];
  const section = (key: "lessons" | "hints"): Record<string, unknown> => {
    if (raw[key] === undefined) return {};
    const parsed = Entries.safeParse(raw[key]);
    if (parsed.success) return parsed.data;
    problems.push(`"${key}" is not an object (${describe(parsed.error)}): dropped`);
    return {};
  };
  for (const [lesson, value] of Object.entries(section("lessons"))) {
    const r = LessonRecordSchema.safeParse(value);
    if (r.success) progress.lessons[lesson] = r.data;
    else problems.push(`the record of ${lesson} is invalid (${describe(r.error)}): dropped, so ${lesson} is graded afresh`);
  }
  for (const [lesson, value] of Object.entries(section("hints"))) {
    const h = LessonHintsSchema.safeParse(value);
    if (h.success) progress.hints[lesson] = h.data;
    else problems.push(`the hints seen for ${lesson} are invalid (${describe(h.error)}): dropped`);
  }
  return { progress, state: problems.length > 0 ? "repaired" : "ok", problems };
}

/** Reads and validates the progress file; see LoadedProgress. */
export function loadProgress(file: string = progressFile()): LoadedProgress {
  const real = checkProgressPath(file);
  if (!existsSync(real)) return { progress: emptyProgress(), state: "missing", problems: [] };
  const text = readFileSync(real, "utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // JSON of some other tool starts with [ or a value; a damaged progress file with { or nothing.
    if (text.trim() !== "" && !text.trimStart().startsWith("{")) {
      throw new UsageError(`${shown(real)} is not a progress file of this course (not JSON), so it is left alone. Point COURSE_PROGRESS_FILE at a new .json file.`);
    }
    return { progress: emptyProgress(), state: "unreadable", problems: [`it is not valid JSON (${(err as Error).message})`] };
  }
  return parseProgress(data, shown(real));
}

const noted = new Set<string>();

/** Prints each problem once per process (a command reads the file more than once). */
function note(file: string, loaded: LoadedProgress): void {
  for (const p of loaded.problems) {
    const line = `note: ${shown(file)}: ${p}.`;
    if (noted.has(line)) continue;
    noted.add(line);
    console.error(line);
  }
}

/** The saved progress; an empty one when there is none. Damage is reported (stderr), never fatal. */
export function readProgress(file: string = progressFile()): Progress {
  const loaded = loadProgress(file);
  if (loaded.state === "unreadable") {
    const line = `note: ${shown(file)} could not be read (${loaded.problems[0]}); it is kept as ${shown(file)}.corrupt-<time> when progress is next saved, and a fresh one started.`;
    if (!noted.has(line)) console.error(line);
    noted.add(line);
    return loaded.progress;
  }
  note(file, loaded);
  return loaded.progress;
}

/** Keeps the file as `<file>.corrupt-<timestamp>` before it is replaced. Returns that path. */
function keepDamaged(file: string, loaded: LoadedProgress, now: Date = new Date()): string | undefined {
  if (loaded.state !== "unreadable" && loaded.state !== "repaired") return undefined;
  const kept = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`;
  copyFileSync(file, kept);
  console.error(`note: the previous ${shown(file)} is kept as ${shown(kept)}.`);
  return kept;
}

// ---- the lock ---------------------------------------------------------------------------------

/** An update holds the lock for milliseconds: one older than this was left by a stuck process. */
const LOCK_STALE_MS = 30_000;
/** How long an update waits for another to finish before giving up. */
const LOCK_WAIT_MS = 60_000;

interface LockOwner {
  pid: number;
  at: number;
  token: string;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readOwner(lock: string): { owner?: LockOwner; mtimeMs: number } | undefined {
  try {
    const mtimeMs = statSync(lock).mtimeMs;
    try {
      const o = JSON.parse(readFileSync(lock, "utf8")) as LockOwner;
      return { owner: typeof o?.pid === "number" && typeof o.token === "string" ? o : undefined, mtimeMs };
    } catch {
      return { mtimeMs };
    }
  } catch {
    return undefined; // gone meanwhile
  }
}

/** True when the lock's holder is gone or has held it far longer than an update takes. */
function isStale(found: { owner?: LockOwner; mtimeMs: number }, now: number): boolean {
  if (!found.owner) return now - found.mtimeMs > 2_000; // created but never written: its maker died at once
  return !processAlive(found.owner.pid) || now - found.owner.at > LOCK_STALE_MS;
}

/**
 * Removes a stale lock. It is renamed away first (only one breaker wins a rename); if what was
 * renamed turns out to be a fresh lock taken meanwhile, it is put back with link (which never
 * replaces a lock someone holds).
 */
function breakStaleLock(lock: string, stale: { owner?: LockOwner }): void {
  const aside = `${lock}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else broke it, or its owner released it
  }
  const moved = readOwner(aside);
  if (moved?.owner && moved.owner.token !== stale.owner?.token) {
    try {
      linkSync(aside, lock);
    } catch {
      // a third process holds the lock now; the one we moved aside finishes unprotected, as before
    }
  }
  rmSync(aside, { force: true });
}

/** Runs `fn` while holding `<file>.lock`. */
export function withProgressLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const me: LockOwner = { pid: process.pid, at: Date.now(), token: randomBytes(8).toString("hex") };
  const deadline = Date.now() + LOCK_WAIT_MS;
  let wait = 2;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      try {
        me.at = Date.now();
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const found = readOwner(lock);
    if (found && isStale(found, Date.now())) {
      breakStaleLock(lock, found);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${shown(file)} stayed locked by another command (${shown(lock)}, pid ${found?.owner?.pid ?? "?"}) for ${LOCK_WAIT_MS / 1000} s; if none is running, delete that lock file.`);
    }
    sleepSync(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
  try {
    return fn();
  } finally {
    if (readOwner(lock)?.owner?.token === me.token) rmSync(lock, { force: true });
  }
}

// ---- writing ----------------------------------------------------------------------------------

function save(progress: Progress, file: string, onDisk: LoadedProgress): void {
  keepDamaged(file, onDisk);
  writeFileAtomic(file, `${JSON.stringify(progress, null, 2)}\n`, { mkdir: false });
}

/** Replaces the progress file with `progress` (a damaged one is kept aside first). */
export function writeProgress(progress: Progress, file: string = progressFile()): void {
  const real = checkProgressPath(file);
  withProgressLock(real, () => save(progress, real, loadProgress(real)));
}

/** Reads the progress, applies `change`, and writes it back, all under the lock. */
export function updateProgress(change: (p: Progress) => void, file: string = progressFile()): Progress {
  const real = checkProgressPath(file);
  return withProgressLock(real, () => {
    const loaded = loadProgress(real);
    note(real, loaded);
    change(loaded.progress);
    save(loaded.progress, real, loaded);
    return loaded.progress;
  });
}

/** The record of a finished grading run. */
export function lessonRecord(hash: string, summaries: readonly FunctionSummary[], fatal?: string, now: Date = new Date(), inputs: readonly string[] = []): LessonRecord {
  const functions: Record<string, FunctionRecord> = {};
  for (const s of summaries) functions[s.exercise] = { verdict: s.verdict, passed: s.passed, total: s.total };
  return { hash, gradedAt: now.toISOString(), functions, ...(fatal ? { fatal } : {}), ...(inputs.length > 0 ? { inputs: [...inputs] } : {}) };
}

/** True when a record's verdict still holds: it was not an infrastructure failure and no file it covers changed. */
export function recordIsFresh(lesson: string, record: LessonRecord | undefined): record is LessonRecord {
  return !!record && !record.fatal && record.hash === lessonHash(lesson, record.inputs);
}

/** True when the record says every function passed. */
export function lessonPassed(record: LessonRecord | undefined): boolean {
  const fns = Object.values(record?.functions ?? {});
  return !record?.fatal && fns.length > 0 && fns.every((f) => f?.verdict === "passed");
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** sha256 of each .ts file of the learner's lesson folder, by absolute path (read now). */
export function lessonFileHashes(lesson: string): Map<string, string> {
  const dir = lessonExercisesDir(lesson);
  const out = new Map<string, string>();
  if (existsSync(dir)) for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts")).sort()) out.set(join(dir, f), sha256(readFileSync(join(dir, f))));
  return out;
}

/**
 * A hash of everything a lesson's verdict depends on: the learner's .ts files of the lesson
 * (names and contents), the learner files outside it that its bundle included (`inputs`, relative
 * to the course root), and the lesson's grader and reference solutions (so a course update
 * regrades too). `known` gives a file's sha256 as it was graded (absolute path → hash); any other
 * file is read now.
 */
export function lessonHash(lesson: string, inputs: readonly string[] = [], known: ReadonlyMap<string, string> = new Map()): string {
  const hash = createHash("sha256");
  const fileHash = (file: string) => known.get(file) ?? (existsSync(file) ? sha256(readFileSync(file)) : "missing");
  const add = (label: string, dir: string) => {
    if (!existsSync(dir)) {
      hash.update(`${label}:missing\n`);
      return;
    }
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts")).sort()) {
      hash.update(`${label}/${f}:${fileHash(join(dir, f))}\n`);
    }
  };
  add("exercises", lessonExercisesDir(lesson));
  add("solutions", join(paths.solutions, lesson));
  for (const rel of [...inputs].sort()) hash.update(`input/${rel}:${fileHash(resolve(paths.exercises, "..", rel))}\n`);
  const grader = casesFile(lesson);
  if (existsSync(grader)) hash.update("grader\n").update(readFileSync(grader));
  return hash.digest("hex").slice(0, 16);
}
