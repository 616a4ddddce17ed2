/**
 * Compares exercises/ with the stubs generated from solutions/ and brings them in line without
 * ever overwriting a learner's work.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { paths } from "../../grader/engine/paths.js";
import { BACKUPS_DIR, backupFile, cleanStaleTemporaries, committedText, currentText, writeFileAtomic } from "../workspace.js";
import { generateStub } from "../../lib/stubs.js";

export type StubState =
  /** exercises/ holds exactly the generated stub */
  | "up-to-date"
  /** the exercise file does not exist */
  | "missing"
  /** the file is as committed but the solution changed since: safe to regenerate */
  | "stale"
  /** the learner changed it (the committed version is the right stub): theirs, left alone */
  | "learner-edited"
  /** it differs from the stub and from what was committed: regenerate with --force (backed up) */
  | "diverged";

export interface StubStatus {
  lesson: string;
  file: string;
  solutionPath: string;
  exercisePath: string;
  stub: string;
  state: StubState;
}

/** Lessons that have a solutions/<lesson>/ folder. */
export function solutionLessons(): string[] {
  if (!existsSync(paths.solutions)) return [];
  return readdirSync(paths.solutions).filter((d) => /^lesson-\d+$/.test(d)).sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
}

export function stubStatuses(lessons: readonly string[] = solutionLessons()): StubStatus[] {
  const out: StubStatus[] = [];
  for (const lesson of lessons) {
    const dir = join(paths.solutions, lesson);
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
      const solutionPath = join(dir, file);
      const exercisePath = join(paths.exercises, lesson, file);
      const stub = generateStub(readFileSync(solutionPath, "utf8"), lesson, file);
      out.push({ lesson, file, solutionPath, exercisePath, stub, state: stateOf(exercisePath, stub) });
    }
  }
  return out;
}

function stateOf(exercisePath: string, stub: string): StubState {
  const current = currentText(exercisePath);
  if (current === undefined) return "missing";
  if (current === stub) return "up-to-date";
  const committed = committedText(exercisePath);
  if (committed === stub) return "learner-edited";
  if (committed !== undefined && current === committed) return "stale";
  return "diverged";
}

export interface SyncOutcome {
  status: StubStatus;
  action: "kept" | "written" | "skipped";
  backup?: string;
}

/**
 * Writes missing and stale stubs. A learner-edited or diverged file is written only with
 * `force`, and then only after a backup under .backups/.
 */
export function syncStubs(statuses: readonly StubStatus[], force: boolean): SyncOutcome[] {
  // Temporaries an interrupted sync or reset left behind (their process is gone): never the only copy of anything.
  for (const dir of new Set(statuses.map((s) => dirname(s.exercisePath)))) cleanStaleTemporaries(dir);
  if (statuses.some((s) => force && (s.state === "learner-edited" || s.state === "diverged"))) cleanStaleTemporaries(BACKUPS_DIR, { recursive: true });
  return statuses.map((status) => {
    switch (status.state) {
      case "up-to-date":
        return { status, action: "kept" };
      case "missing":
      case "stale":
        writeFileAtomic(status.exercisePath, status.stub);
        return { status, action: "written" };
      case "learner-edited":
      case "diverged": {
        if (!force) return { status, action: "skipped" };
        const backup = backupFile(status.exercisePath);
        writeFileAtomic(status.exercisePath, status.stub);
        return { status, action: "written", backup };
      }
    }
  });
}
