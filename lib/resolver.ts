/**
 * The one door between the course and lesson functions. Labs, the model, training and RL runs ask
 * `resolveFunction("lesson-23", "maskedGae")` for a function and get:
 *
 * 1. the learner's own function (exercises/lesson-NN/, or COURSE_EXERCISES_DIR) when it passes
 *    grading, every case of that function;
 * 2. else the reference (solutions/lesson-NN/) when it is present;
 * 3. else an error saying "finish lesson N first: `npm run grade lesson-N`" (an edition without
 *    solutions/ has nothing else to run).
 *
 * `useReference` (a lab's `--use-reference lesson-11,lesson-12` or `all`) takes the reference
 * whatever the learner's state, when it is present.
 *
 * "Passes" is decided by the course's isolated grader (tools/loop/grading.ts: a child process with
 * a watchdog), never by running the learner's code in this process; a saved progress record
 * (.course-progress.json) whose hash still matches the files answers without grading again. The
 * grader sits above lib/, so it is connected (`connectGrading`, done by every course command) rather
 * than imported; processes forked from a connected one inherit the connection. An
 * exercise file that is still the untouched stub, or a function that still throws its
 * NotImplementedError, is "not started" and is not graded at all.
 *
 * This module is the only place outside solutions/ and grader/ that loads solutions/: it finds the
 * file exporting a function by reading the folder, and imports it by path.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, coursePaths as paths } from "./course/paths.js";
import { generateStub } from "./stubs.js";
import { findLesson } from "./catalog.js";

export type FunctionSource = "exercises" | "solutions";

export interface ResolveOptions {
  /**
   * Take the reference when it is present, whatever the learner's state: `true`, or the lessons
   * to take it for ("lesson-11", "11", or "all").
   */
  useReference?: boolean | readonly string[];
  /** The learner's folder of lesson-NN/ (default exercises/, or COURSE_EXERCISES_DIR). */
  exercisesDir?: string;
  /** The reference solutions' folder of lesson-NN/ (default solutions/; the tests point it elsewhere). */
  solutionsDir?: string;
  /** Only the reference, never the learner's (nothing is graded); throws when it is absent. */
  referenceOnly?: boolean;
  /** Longest one grading case may run (default 10 s, as `npm run grade`). */
  caseTimeoutMs?: number;
}

export interface Resolution<F> {
  fn: F;
  source: FunctionSource;
  /** Why, in a few words: "passes 10/10 cases", "not started", "--use-reference", … */
  why: string;
}

/** One resolved function, as a run reports it. */
export interface FunctionChoice {
  lesson: string;
  name: string;
  source: FunctionSource;
  why: string;
}

/** Thrown when neither a passing exercise nor the reference is there to run. */
export class LessonNotFinishedError extends Error {
  readonly lesson: string;
  readonly exercise: string;
  constructor(lesson: string, exercise: string, why: string) {
    const n = findLesson(lesson)?.number ?? lesson.replace(/^lesson-/, "");
    super(`${exercise} (${lesson}) is needed here, but yours is ${why} and no reference solution is present: finish lesson ${n} first: \`npm run grade ${lesson}\``);
    this.name = "LessonNotFinishedError";
    this.lesson = lesson;
    this.exercise = exercise;
  }
}

/** `--use-reference lesson-11,lesson-12` (or `=`, repeated, or `all`) out of a run's arguments. */
export function parseUseReference(args: readonly string[]): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    const value = a.startsWith("--use-reference=") ? a.slice("--use-reference=".length) : a === "--use-reference" ? args[i + 1] : undefined;
    if (value) out.push(...value.split(",").map((s) => s.trim()).filter((s) => s !== ""));
  });
  return out;
}

/** `args` without the `--use-reference` option and its value (for labs that parse the rest). */
export function withoutUseReference(args: readonly string[]): string[] {
  return args.filter((a, i) => !a.startsWith("--use-reference") && args[i - 1] !== "--use-reference");
}

const lessonId = (lesson: string) => findLesson(lesson)?.id ?? lesson;

function forcedReference(lesson: string, use: ResolveOptions["useReference"]): boolean {
  if (use === true) return true;
  if (!use) return false;
  return use.some((l) => l === "all" || lessonId(l) === lesson);
}

const exportPattern = (name: string) =>
  new RegExp(`^export\\s+(?:(?:async\\s+)?function\\s*\\*?\\s*${name}\\b|(?:const|let|var)\\s+${name}\\b)|^export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*;?\\s*$`, "m");

/** The .ts file of `dir` that exports `name`, if any. */
function fileExporting(dir: string, name: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const pattern = exportPattern(name);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .find((f) => pattern.test(readFileSync(join(dir, f), "utf8")));
}

async function importFunction<F>(file: string, name: string): Promise<F> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== "function") throw new Error(`${relative(ROOT, file)} exports no function ${name}`);
  return fn as F;
}

/** What the grader says of one learner function: its verdict and counts, why grading could not run, or that it has no cases. */
export type LearnerVerdict = { verdict: string; passed: number; total: number } | { fatal: string } | { noCases: true };

/** The grader as the resolver asks it: the exports of the module `connectGrading` names (tools/loop/resolver-grading.ts). */
export interface ResolverGrading {
  /** The learner's folder of lesson folders (exercises/, or COURSE_EXERCISES_DIR, checked). */
  exercisesDir(): string;
  /** Whether the learner's `name` of `lesson`, in the workspace `dir`, passes every case. */
  learnerVerdict(lesson: string, name: string, dir: string, caseTimeoutMs: number): Promise<LearnerVerdict>;
}

/** The environment variable naming the connected grading module: forked processes inherit it. */
const GRADING_MODULE = "COURSE_GRADING_MODULE";

/**
 * Connects the course's grader to the resolver of this process and of those it starts:
 * `moduleUrl` is the file URL of a module exporting ResolverGrading's functions.
 */
export function connectGrading(moduleUrl: string): void {
  process.env[GRADING_MODULE] = moduleUrl;
}

async function grading(): Promise<ResolverGrading> {
  const url = process.env[GRADING_MODULE];
  if (!url) throw new Error("no grader is connected to this process (the course's commands connect it; see connectGrading in lib/resolver.ts)");
  return (await import(url)) as ResolverGrading;
}

/**
 * The learner's folder: the connected grader's (which checks COURSE_EXERCISES_DIR), or, in a process
 * without one (a test), COURSE_EXERCISES_DIR or exercises/ as given.
 */
async function learnerFolder(): Promise<string> {
  if (process.env[GRADING_MODULE]) return (await grading()).exercisesDir();
  const override = process.env.COURSE_EXERCISES_DIR;
  return override ? resolve(override) : paths.exercises;
}

interface Verdict {
  passed: boolean;
  why: string;
}

/** Gradings of this process, by folder, lesson and function: a run asks each question once. */
const verdicts = new Map<string, Promise<Verdict>>();

/** Whether the learner's `name` passes every case, from a fresh progress record or the isolated grader. */
function verdictOf(lesson: string, name: string, dir: string, caseTimeoutMs: number): Promise<Verdict> {
  const key = `${resolve(dir)}\0${lesson}\0${name}`;
  let v = verdicts.get(key);
  if (!v) {
    v = gradeOne(lesson, name, dir, caseTimeoutMs).catch((err: unknown) => ({
      passed: false,
      why: `grading could not run (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`,
    }));
    verdicts.set(key, v);
  }
  return v;
}

async function gradeOne(lesson: string, name: string, dir: string, caseTimeoutMs: number): Promise<Verdict> {
  const v = await (await grading()).learnerVerdict(lesson, name, dir, caseTimeoutMs);
  if ("fatal" in v) return { passed: false, why: `grading could not run (${v.fatal.split("\n")[0]})` };
  if ("noCases" in v) return { passed: false, why: "no grader cases" };
  return { passed: v.verdict === "passed", why: describe(v.verdict, v.passed, v.total) };
}

function describe(verdict: string, passed: number, total: number): string {
  if (verdict === "passed") return `passes ${passed}/${total} cases`;
  if (verdict === "not-implemented") return "not started";
  if (verdict === "timeout" || verdict === "error") return `${verdict} in grading, passes ${passed}/${total} cases`;
  return `fails ${total - passed} of ${total} cases`;
}

/** True when the learner's file is the generated stub, or `name` still throws its NotImplementedError. */
function notStarted(learnerText: string, lesson: string, name: string, solutionFile: string | undefined, fileName: string): boolean {
  if (solutionFile && learnerText === generateStub(readFileSync(solutionFile, "utf8"), lesson, fileName)) return true;
  return learnerText.includes(`new NotImplementedError(${JSON.stringify(lesson)}, ${JSON.stringify(name)})`);
}

/**
 * The function `name` of `lesson`: the learner's when it passes grading, else the reference when
 * present, else a LessonNotFinishedError. See the module comment.
 */
export async function resolveFunction<F>(lesson: string, name: string, opts: ResolveOptions = {}): Promise<Resolution<F>> {
  const id = lessonId(lesson);
  const solutionsDir = join(opts.solutionsDir ?? paths.solutions, id);
  const solutionName = fileExporting(solutionsDir, name);
  const solutionFile = solutionName ? join(solutionsDir, solutionName) : undefined;
  const reference = async (why: string): Promise<Resolution<F>> => ({ fn: await importFunction<F>(solutionFile!, name), source: "solutions", why });

  if (solutionFile && forcedReference(id, opts.useReference)) return reference("--use-reference");
  if (opts.referenceOnly) throw new LessonNotFinishedError(id, name, "not consulted (reference only)");

  const exercises = opts.exercisesDir ?? (await learnerFolder());
  const learnerDir = join(exercises, id);
  const learnerName = solutionName ?? fileExporting(learnerDir, name);
  const learnerFile = learnerName ? join(learnerDir, learnerName) : undefined;
  let why: string;
  if (!learnerFile || !existsSync(learnerFile)) {
    why = learnerName ? `missing (no ${relative(ROOT, learnerFile!)})` : `missing (no file of ${relative(ROOT, learnerDir)} exports it)`;
  } else if (!exportPattern(name).test(readFileSync(learnerFile, "utf8"))) {
    why = `no ${name} in ${relative(ROOT, learnerFile)}`;
  } else if (notStarted(readFileSync(learnerFile, "utf8"), id, name, solutionFile, learnerName!)) {
    why = "not started";
  } else {
    const verdict = await verdictOf(id, name, exercises, opts.caseTimeoutMs ?? 10_000);
    if (verdict.passed) return { fn: await importFunction<F>(learnerFile, name), source: "exercises", why: verdict.why };
    why = verdict.why;
  }
  if (solutionFile) return reference(why);
  throw new LessonNotFinishedError(id, name, why);
}

/**
 * Thrown when several functions a run needs are missing: every one is named, with the lessons to
 * finish, in one message (a learner fixes them all, not one per attempt).
 */
export class LessonsNotFinishedError extends LessonNotFinishedError {
  readonly missing: readonly LessonNotFinishedError[];
  constructor(missing: readonly LessonNotFinishedError[]) {
    super(missing[0].lesson, missing[0].exercise, "missing");
    const lessons = [...new Set(missing.map((m) => m.lesson))].sort((a, b) => (findLesson(a)?.number ?? 0) - (findLesson(b)?.number ?? 0));
    this.name = "LessonNotFinishedError";
    this.message = [
      `this run needs ${missing.length} functions that are neither yours and passing nor present as a reference solution:`,
      ...missing.map((m) => `  ${m.message.replace(/: finish lesson .*$/, "")}`),
      `finish ${lessons.length === 1 ? "lesson" : "lessons"} ${lessons.map((l) => findLesson(l)?.number ?? l).join(", ")} first, starting with \`npm run grade ${lessons[0]}\``,
    ].join("\n");
    this.missing = missing;
  }
}

/**
 * Several functions at once, in the order given: `homes` maps each function's name to its lesson.
 * Returns the functions and one choice per function, for `formatChoices`. When some cannot be had,
 * every one of them is named in one LessonsNotFinishedError (one alone: its LessonNotFinishedError).
 */
export async function resolveFunctions<T extends object>(
  homes: { [K in keyof T]: string },
  opts: ResolveOptions = {},
): Promise<{ fns: T; choices: FunctionChoice[] }> {
  const fns: Record<string, unknown> = {};
  const choices: FunctionChoice[] = [];
  const missing: LessonNotFinishedError[] = [];
  for (const [name, lesson] of Object.entries(homes) as Array<[string, string]>) {
    try {
      const r = await resolveFunction<unknown>(lesson, name, opts);
      fns[name] = r.fn;
      choices.push({ lesson: lessonId(lesson), name, source: r.source, why: r.why });
    } catch (err) {
      if (!(err instanceof LessonNotFinishedError)) throw err;
      missing.push(err);
    }
  }
  if (missing.length === 1) throw missing[0];
  if (missing.length > 1) throw new LessonsNotFinishedError(missing);
  return { fns: fns as T, choices };
}

/**
 * A "whose functions" table, one line per function, under 100 columns:
 *   maskedGae        lesson-23  yours (passes 10/10 cases)
 *   ppoPolicyLoss    lesson-23  reference (not started)
 */
export function formatChoices(choices: readonly FunctionChoice[]): string[] {
  const nameWidth = Math.max(8, ...choices.map((c) => c.name.length));
  const lessonWidth = Math.max(9, ...choices.map((c) => c.lesson.length));
  return choices.map((c) => {
    const whose = c.source === "exercises" ? "yours" : "reference";
    return `${c.name.padEnd(nameWidth)}  ${c.lesson.padEnd(lessonWidth)}  ${whose} (${c.why})`;
  });
}

/** The table with a heading and, when some are the reference, how to take yours instead. */
export function describeRun(choices: readonly FunctionChoice[]): string[] {
  const lines = ["Whose functions this run uses:", ...formatChoices(choices).map((l) => `  ${l}`)];
  const lessons = [...new Set(choices.filter((c) => c.source === "solutions" && c.why !== "--use-reference").map((c) => c.lesson))];
  if (lessons.length > 0) lines.push(`  (yours runs here once it passes: npm run grade ${lessons[0]}${lessons.length > 1 ? ", …" : ""})`);
  return lines;
}
