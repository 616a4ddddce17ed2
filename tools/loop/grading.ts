/**
 * Grading as the learner's loop uses it: the engine's isolated runner (a fresh child process each
 * time, so an edited file is never served from a stale import cache), with the verdict of every
 * complete run of the learner's files saved to the progress file.
 */
import { join, relative, sep } from "node:path";
import { gradeIsolated, type IsolatedOptions, type IsolatedRun } from "../../grader/engine/isolate.js";
import { ROOT, paths } from "../../grader/engine/paths.js";
import { summarise, type FunctionSummary } from "../../grader/engine/summary.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { lessonExercisesDir } from "./locations.js";
import { lessonFileHashes, lessonHash, lessonRecord, loadProgress, updateProgress, type LessonRecord } from "./progress.js";

export interface GradeOptions {
  /** Grade only this function. */
  only?: string;
  /** Grade solutions/ instead of the learner's files (never recorded). */
  solutions?: boolean;
  caseTimeoutMs: number;
  onResult?: (r: CaseResult) => void;
  /** See IsolatedOptions: the plan as soon as it is known; the learner's code starts once `begin` settles. */
  onPlan?: IsolatedOptions["onPlan"];
  begin?: Promise<void>;
}

export interface Graded {
  run: IsolatedRun;
  summaries: FunctionSummary[];
  /** What was saved to the progress file; undefined for partial or --solutions runs, and when grading could not run (run.fatal). */
  record?: LessonRecord;
}

export function gradeLesson(lesson: string, opts: GradeOptions): Promise<Graded> {
  // A refused progress file (COURSE_PROGRESS_FILE on the learner's code, a file of another kind) is a
  // UsageError thrown here, synchronously, before anything is graded.
  if (!opts.solutions && !opts.only) loadProgress();
  return gradeAndRecord(lesson, opts);
}

async function gradeAndRecord(lesson: string, opts: GradeOptions): Promise<Graded> {
  const implDir = opts.solutions ? join(paths.solutions, lesson) : lessonExercisesDir(lesson);
  const recordable = !opts.solutions && !opts.only;
  // The lesson's files are hashed before grading: a file saved during the run makes the record
  // stale, never wrongly fresh. Files it imports from elsewhere are hashed as they were bundled.
  const before = recordable ? lessonFileHashes(lesson) : new Map<string, string>();
  const run = await gradeIsolated(
    { lesson, implDir, only: opts.only ? [opts.only] : undefined, hints: !opts.solutions, reference: opts.solutions },
    { caseTimeoutMs: opts.caseTimeoutMs, onResult: opts.onResult, onPlan: opts.onPlan, begin: opts.begin },
  );
  const summaries = summarise(run.results);
  if (!recordable) return { run, summaries };
  // An infrastructure failure (the backend failed, the grader crashed, a limit overflowed) says
  // nothing about the learner's code: it is reported, never saved, so it cannot replace a verdict.
  if (run.fatal) return { run, summaries };
  const inputs = [...(run.learnerInputs?.keys() ?? [])].filter((f) => !f.startsWith(implDir + sep));
  const hash = lessonHash(lesson, inputs.map((f) => relative(ROOT, f)), new Map([...(run.learnerInputs ?? []), ...before]));
  const record = lessonRecord(hash, summaries, undefined, new Date(), inputs.map((f) => relative(ROOT, f)));
  updateProgress((p) => {
    p.lessons[lesson] = record;
  });
  return { run, summaries, record };
}
