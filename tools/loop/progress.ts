/**
 * The learner's progress: one small JSON file (.course-progress.json, ignored by git) holding, per
 * lesson, the verdict of each function at the last grading and a hash of the files that were
 * graded, and the hints revealed so far. Written atomically; a damaged file is reported and
 * replaced, never a crash.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { paths } from "../../grader/engine/paths.js";
import type { FunctionSummary, FunctionVerdict } from "../../grader/engine/summary.js";
import { writeFileAtomic } from "../workspace.js";
import { lessonExercisesDir, progressFile, shown } from "./locations.js";

export interface FunctionRecord {
  verdict: FunctionVerdict;
  passed: number;
  total: number;
}

export interface LessonRecord {
  /** Hash of the learner's files and the lesson's grader and solutions when it was graded. */
  hash: string;
  /** ISO time of the grading. */
  gradedAt: string;
  /** Function name → its verdict, in the grader's order. Empty when grading could not run. */
  functions: Record<string, FunctionRecord>;
  /** Why grading could not run, when it could not. */
  fatal?: string;
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

/** The saved progress; an empty one when there is none, or (with a warning) when it is unreadable. */
export function readProgress(file: string = progressFile()): Progress {
  if (!existsSync(file)) return emptyProgress();
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<Progress>;
    if (data.version !== 1 || typeof data.lessons !== "object" || typeof data.hints !== "object" || !data.lessons || !data.hints) {
      throw new Error("not a progress file of this course");
    }
    return { version: 1, lessons: data.lessons, hints: data.hints };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(`note: ${shown(file)} could not be read (${why}); starting a fresh one.`);
    return emptyProgress();
  }
}

export function writeProgress(progress: Progress, file: string = progressFile()): void {
  writeFileAtomic(file, `${JSON.stringify(progress, null, 2)}\n`);
}

/** Reads the progress, applies `change`, and writes it back at once. */
export function updateProgress(change: (p: Progress) => void, file: string = progressFile()): Progress {
  const progress = readProgress(file);
  change(progress);
  writeProgress(progress, file);
  return progress;
}

/** The record of a finished grading run. */
export function lessonRecord(hash: string, summaries: readonly FunctionSummary[], fatal?: string, now: Date = new Date()): LessonRecord {
  const functions: Record<string, FunctionRecord> = {};
  for (const s of summaries) functions[s.exercise] = { verdict: s.verdict, passed: s.passed, total: s.total };
  return { hash, gradedAt: now.toISOString(), functions, ...(fatal ? { fatal } : {}) };
}

/** True when the record says every function passed. */
export function lessonPassed(record: LessonRecord | undefined): boolean {
  const fns = Object.values(record?.functions ?? {});
  return !record?.fatal && fns.length > 0 && fns.every((f) => f.verdict === "passed");
}

/**
 * A hash of everything a lesson's verdict depends on: the learner's .ts files of the lesson
 * (names and contents), and the lesson's grader and reference solutions (so a course update
 * regrades too).
 */
export function lessonHash(lesson: string): string {
  const hash = createHash("sha256");
  const add = (label: string, dir: string) => {
    if (!existsSync(dir)) {
      hash.update(`${label}:missing\n`);
      return;
    }
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts")).sort()) {
      hash.update(`${label}/${f}\n`).update(readFileSync(join(dir, f))).update("\n");
    }
  };
  add("exercises", lessonExercisesDir(lesson));
  add("solutions", join(paths.solutions, lesson));
  const grader = join(paths.graders, `${lesson}.ts`);
  if (existsSync(grader)) hash.update("grader\n").update(readFileSync(grader));
  return hash.digest("hex").slice(0, 16);
}
