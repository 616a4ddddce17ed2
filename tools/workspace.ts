/**
 * Safe writes into a learner's workspace: atomic replacement and timestamped backups, so that no
 * command of the course ever loses a learner's file.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "../grader/engine/paths.js";

/** Writes `text` to `file` through a temporary file and a rename: never a half-written file. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Copies `file` to .backups/<timestamp>/<its path> and returns the backup's path. */
export function backupFile(file: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const target = join(ROOT, ".backups", stamp, relative(ROOT, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
  return target;
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
