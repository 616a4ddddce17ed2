/**
 * Safe writes into a learner's workspace: atomic replacement and timestamped backups, so that no
 * command of the course ever loses a learner's file.
 *
 * Both go through a temporary file beside the target, completely written and flushed before it is
 * renamed over the target: a command killed half-way leaves the learner's file (or an earlier
 * backup) whole, plus at worst that temporary. The next command removes such leftovers
 * (cleanStaleTemporaries): a temporary whose process is gone, or older than any write takes.
 *
 * The temporaries sit beside the learner's own files, so clean-up must never mistake one of those
 * for ours: a temporary is named `.<target>.course-tmp-<pid>-<8 hex digits>.tmp` (hidden, the
 * course's mark, the writer's pid and a random part), and clean-up removes only names of exactly
 * that form. A learner's `scratch.20240101.tmp` or `notes.12345.tmp` is never touched.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, copyFileSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { ROOT } from "../grader/engine/paths.js";
import { processAlive } from "../lib/processes.js";

/** Where backups go: .backups/<timestamp>/<the file's path in the repository>. */
export const BACKUPS_DIR = join(ROOT, ".backups");

/** `.<name>.course-tmp-<pid>-<8 hex>.tmp`: the temporaries writeFileAtomic and backupFile make, and no others. */
const TEMPORARY = /^\.(.+)\.course-tmp-([1-9]\d*)-[0-9a-f]{8}\.tmp$/;

/** A temporary older than this is a leftover whatever its process id says (ids are reused). */
const TEMPORARY_MAX_AGE_MS = 10 * 60_000;

/** A fresh temporary for `file`, in its folder (so the rename stays on one file system). */
function temporaryName(file: string): string {
  return join(dirname(file), `.${basename(file)}.course-tmp-${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
}


/** Writes `fd` to disk before the rename that publishes it. */
function flush(file: string): void {
  const fd = openSync(file, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface WriteOptions {
  /** Create the file's folder when it is missing (default true); false throws instead. */
  mkdir?: boolean;
}

/** Writes `text` to `file` through a temporary file and a rename: never a half-written file. */
export function writeFileAtomic(file: string, text: string, opts: WriteOptions = {}): void {
  if (opts.mkdir !== false) mkdirSync(dirname(file), { recursive: true });
  cleanStaleTemporaries(dirname(file), { only: basename(file) });
  const tmp = temporaryName(file);
  try {
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Copies `file` to .backups/<timestamp>/<its path> and returns the backup's path. The copy is made
 * under a temporary name and renamed once complete, so a backup that exists is always whole. A
 * file outside the repository is kept under .backups/<timestamp>/_outside/<its absolute path>.
 */
export function backupFile(file: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const rel = relative(ROOT, file);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  let target = inside ? join(BACKUPS_DIR, stamp, rel) : join(BACKUPS_DIR, stamp, "_outside", file.replace(/^[/\\]+/, "").replace(/:/g, ""));
  for (let n = 1; existsSync(target); n++) target = `${target.replace(/~\d+$/, "")}~${n}`;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = temporaryName(target);
  try {
    copyFileSync(file, tmp);
    flush(tmp);
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return target;
}

export interface CleanOptions {
  /** Only the temporaries of this file name (`.<only>.course-tmp-<pid>-<hex>.tmp`). */
  only?: string;
  /** Look into sub-folders too (for .backups/), removing folders the clean-up leaves empty. */
  recursive?: boolean;
  now?: number;
}

/**
 * Removes leftover temporaries of this course (`.<name>.course-tmp-<pid>-<hex>.tmp`, nothing else)
 * in `dir`: those whose process is gone, or that are older than any write takes (process ids are
 * reused). Returns the paths removed. Links are neither followed nor removed. A temporary is never
 * the only copy of anything: it is renamed over its target only once complete, and the target
 * stays whole until then.
 */
export function cleanStaleTemporaries(dir: string, opts: CleanOptions = {}): string[] {
  const removed: string[] = [];
  if (!existsSync(dir)) return removed;
  const now = opts.now ?? Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (!opts.recursive) continue;
      removed.push(...cleanStaleTemporaries(path, opts));
      if (readdirSync(path).length === 0 && removed.some((r) => r.startsWith(path + sep))) rmdirSync(path);
      continue;
    }
    if (!st.isFile()) continue; // a link or anything else is not one of ours, whatever its name
    const m = TEMPORARY.exec(name);
    if (!m || (opts.only !== undefined && m[1] !== opts.only)) continue;
    const pid = Number(m[2]);
    const stale = pid === process.pid ? false : !processAlive(pid) || now - st.mtimeMs > TEMPORARY_MAX_AGE_MS;
    if (!stale) continue;
    rmSync(path, { force: true });
    removed.push(path);
  }
  return removed;
}

/** The committed (HEAD) text of a repository file, or undefined (no git, or not committed). */
export function committedText(file: string): string | undefined {
  try {
    return execFileSync("git", ["show", `HEAD:${relative(ROOT, file)}`], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return undefined;
  }
}

/** The working-copy text of a file, or undefined when it does not exist. */
export function currentText(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}
