/**
 * npm run grade [lesson-NN [function]] [--solutions] [--json] [--verbose] [--timeout <s>] [--compare]
 *
 * Grades exercises/<lesson> (or solutions/ with --solutions) as the vitest tests of the `grade`
 * project (grader/vitest/): the learner's code runs in its own sandboxed process with a per-case
 * time limit, and each function's verdict is saved to the progress file (.course-progress.json).
 * Without a lesson it prints the progress table, re-grading only the lessons whose files changed
 * since they were last graded. --compare shows the learner's code beside the reference once the
 * lesson passes. Exit codes: 0 everything passed, 1 something failed or is unfinished, 2 usage error.
 */
import chalk from "chalk";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { CATALOG, MODULE_TITLES, type LessonInfo } from "../../lib/catalog.js";
import { gradedLessons, paths } from "../../grader/engine/paths.js";
import { allPassed, type FunctionSummary } from "../../grader/engine/summary.js";
import type { CaseResult } from "../../grader/engine/types.js";
import { gradedLesson, parseArgs, runCommand, UsageError } from "./cli-support.js";
import { notReleased } from "../../lib/course/edition.js";
import { gradeLesson, type Graded } from "./grading.js";
import { exercisesDir, progressFile, shown } from "./locations.js";
import { lessonPassed, lessonRecord, loadProgress, readProgress, recordIsFresh, type LessonRecord } from "./progress.js";
import { gradeInVitest } from "../../grader/vitest/run.js";
import { progressCell } from "./status.js";
import { requestedBackend } from "../../lib/backend-choice.js";
import { lessonCalls, lessonFunctionNames, nearestName } from "../../grader/functions.js";
import { typeCheck } from "../../grader/typecheck.js";
import { lessonExercisesDir } from "./locations.js";
import { readdirSync } from "node:fs";

/** A moment after grading ends, however it ends: how long the type check may still take. */
const settleSoon = () => new Promise((r) => setTimeout(r, 300));

/** The learner's .ts files of a lesson (what the type check reads). */
function learnerFiles(lesson: string): string[] {
  const dir = lessonExercisesDir(lesson);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".ts")).sort().map((f) => join(dir, f)) : [];
}

const USAGE = `usage: npm run grade -- [lesson-NN [function]] [--solutions] [--json | --json-file <file.json>] [--verbose] [--timeout <seconds>] [--compare]

  npm run grade                          progress over every lesson (re-grades only lessons you changed)
  npm run grade lesson-23                grade exercises/lesson-23
  npm run grade lesson-23 maskedGae      grade one function
  npm run grade lesson-23 -- --compare   once the lesson passes: your code beside the reference
  npm run grade -- lesson-23 --solutions grade the reference solutions instead
  npm run -s grade -- lesson-23 --json   results as JSON on stdout (-s: without npm's banner)
  npm run grade -- lesson-23 --json-file out.json   the same JSON written to a file`;

interface Options {
  lesson?: LessonInfo;
  only?: string;
  solutions: boolean;
  json: boolean;
  /** Where --json-file writes the JSON (undefined: stdout). */
  jsonFile?: string;
  verbose: boolean;
  compare: boolean;
  timeoutMs: number;
}

function options(argv: string[]): Options {
  const a = parseArgs(argv, { flags: ["--solutions", "--json", "--verbose", "-v", "--compare"], values: ["--timeout", "--json-file"] });
  if (a.positional.length > 2) throw new UsageError(`too many arguments: ${a.positional.join(" ")}`);
  const timeout = a.values.get("--timeout");
  const seconds = timeout === undefined ? 10 : Number(timeout);
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_S)) throw new UsageError(`--timeout needs a number of seconds from 0.1 to ${MAX_TIMEOUT_S}, e.g. --timeout 20`);
  try {
    requestedBackend();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const opts: Options = {
    lesson: a.positional[0] === undefined ? undefined : gradedLesson(a.positional[0], "grade"),
    only: a.positional[1],
    solutions: a.flags.has("--solutions"),
    json: a.flags.has("--json") || a.values.has("--json-file"),
    jsonFile: jsonFileOption(a.values.get("--json-file")),
    verbose: a.flags.has("--verbose") || a.flags.has("-v"),
    compare: a.flags.has("--compare"),
    timeoutMs: seconds * 1000,
  };
  if (opts.compare && !opts.lesson) throw new UsageError("--compare needs a lesson: npm run grade lesson-23 -- --compare");
  if (opts.compare && (opts.solutions || opts.json)) throw new UsageError("--compare compares your exercises with the reference: leave out --solutions and --json");
  exercisesDir(); // a bad COURSE_EXERCISES_DIR is a usage error before any grading starts
  if (opts.lesson && opts.only) checkFunctionName(opts.lesson, opts.only);
  return opts;
}

/** The --json-file path, checked: a .json file in an existing folder outside the learner's exercises. */
function jsonFileOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const file = resolve(value);
  if (!file.endsWith(".json")) throw new UsageError(`--json-file ${value}: give a .json file name, e.g. --json-file results.json`);
  if (!existsSync(dirname(file))) throw new UsageError(`--json-file ${value}: the folder ${shown(dirname(file))} does not exist`);
  const exercises = resolve(exercisesDir());
  if (file.startsWith(exercises + sep)) throw new UsageError(`--json-file ${value}: write it outside ${shown(exercises)}, where your own files are`);
  return file;
}

/** Prints machine-readable results, or writes them to --json-file. */
function emitJson(opts: Options, value: unknown): void {
  const text = JSON.stringify(value, null, 2);
  if (opts.jsonFile) writeFileSync(opts.jsonFile, `${text}\n`);
  else console.log(text);
}

/** The longest --timeout: an hour a case (a timer cannot wait longer than 24.8 days anyway). */
const MAX_TIMEOUT_S = 3600;

/** A UsageError naming the lesson's functions, and the nearest, when `name` is not one of them. */
function checkFunctionName(lesson: LessonInfo, name: string): void {
  const names = lessonFunctionNames(lesson.id);
  if (names.length === 0 || names.includes(name)) return;
  const nearest = nearestName(name, names);
  throw new UsageError(
    `${lesson.id} has no function named "${name}".${nearest ? ` Did you mean ${nearest}?` : ""} Its functions: ${names.join(", ")}` +
      (nearest ? `\n  npm run grade ${lesson.id} ${nearest}` : ""),
  );
}

interface LessonOutcome {
  code: number;
  graded: Graded;
}

/** Grades one lesson and prints its report (or JSON). */
async function gradeAndReport(lesson: LessonInfo, opts: Options): Promise<LessonOutcome> {
  const t0 = Date.now();
  // A refused progress file is a usage error before anything is graded, as in gradeLesson.
  if (!opts.solutions && !opts.only) loadProgress();
  const grading = gradeInVitest(lesson.id, { only: opts.only, solutions: opts.solutions, caseTimeoutMs: opts.timeoutMs });
  // report.ts loads TensorFlow.js (through engine/compare.ts): load it while the child grades, not before.
  const report = opts.json ? undefined : import("../../grader/report.js");
  // The type check runs beside grading and waits for it at most a moment longer.
  const types = opts.json || opts.solutions ? undefined : typeCheck(learnerFiles(lesson.id), grading.then(settleSoon, settleSoon));
  const graded = await grading;
  const { run, summaries } = graded;
  if (run.fatal) {
    console.error(chalk.red(`could not grade ${lesson.id}: ${run.fatal.message}`));
    return { code: run.fatal.usage ? 2 : 1, graded };
  }
  if (opts.only && run.results.length === 0) {
    console.error(`${lesson.id} has no function named "${opts.only}".`);
    return { code: 2, graded };
  }
  const code = allPassed(run.results) ? 0 : 1;
  if (opts.json) {
    emitJson(opts, run.results.map((r) => ({ lesson: lesson.id, ...r, name: r.case })));
    return { code, graded };
  }
  const { formatGradedLesson, nextStepLine } = await report!;
  const where = opts.solutions ? "solutions" : shown(exercisesDir());
  const calls = lessonCalls(opts.solutions ? join(paths.solutions, lesson.id) : lessonExercisesDir(lesson.id), summaries.map((s) => s.exercise));
  console.log(
    formatGradedLesson(run, summaries, {
      title: `${lesson.id} · ${lesson.title}  ${chalk.dim(`(${where}/${lesson.id})`)}`,
      verbose: opts.verbose,
      verboseCommand: `npm run grade -- ${lesson.id}${opts.only ? ` ${opts.only}` : ""} --verbose`,
      calls,
      typeCheck: await types,
      ms: Date.now() - t0,
      next: opts.solutions ? undefined : nextStepLine(lesson),
    }),
  );
  return { code, graded };
}

/** True when the functions compared (all, or `only`) passed in this record. */
function passesFor(record: LessonRecord, only: string | undefined): boolean {
  if (!only) return lessonPassed(record);
  return !record.fatal && record.functions[only]?.verdict === "passed";
}

async function compareCommand(lesson: LessonInfo, opts: Options): Promise<number> {
  const saved = readProgress().lessons[lesson.id];
  let summaries: readonly FunctionSummary[] | undefined;
  if (recordIsFresh(lesson.id, saved) && passesFor(saved, opts.only)) {
    console.log(chalk.green(`${opts.only ?? lesson.id} passes`) + chalk.dim(` (graded ${new Date(saved.gradedAt).toLocaleString()}; your files have not changed since).`));
  } else {
    const { code, graded } = await gradeAndReport(lesson, opts);
    if (code === 2) return 2;
    summaries = graded.summaries;
    if (code !== 0) {
      const passed = summaries.filter((s) => s.verdict === "passed").length;
      console.log("");
      console.log(
        chalk.yellow(`--compare shows the reference solution only once your code passes, so that it never spoils an exercise: ${passed}/${summaries.length} function(s) pass now.`) +
          `\nKeep going with \`npm run grade ${lesson.id}\`; \`npm run hint ${lesson.id}\` reveals hints one at a time.`,
      );
      return 1;
    }
  }
  const names = opts.only ? [opts.only] : summaries ? summaries.map((s) => s.exercise) : Object.keys(saved!.functions);
  const { compareFunctions, formatComparison } = await import("./compare.js");
  const width = process.stdout.columns || Number(process.env.COLUMNS) || 120;
  console.log(formatComparison(compareFunctions(lesson.id, names), width));
  return 0;
}

async function progressCommand(opts: Options): Promise<number> {
  const progress = readProgress();
  const records = new Map<string, LessonRecord>();
  const regraded: string[] = [];
  const cases: Array<CaseResult & { lesson: string }> = [];
  for (const id of gradedLessons()) {
    const saved = progress.lessons[id];
    // --json and --solutions always grade afresh: scripts want every case, not a saved verdict.
    if (!opts.json && !opts.solutions && recordIsFresh(id, saved)) {
      records.set(id, saved);
      continue;
    }
    if (!opts.json) console.error(chalk.dim(`grading ${id}${saved ? " (changed since it was last graded)" : ""} …`));
    const g = await gradeLesson(id, { solutions: opts.solutions, caseTimeoutMs: opts.timeoutMs });
    records.set(id, g.record ?? lessonRecord("", g.summaries, g.run.fatal?.message));
    regraded.push(id);
    cases.push(...g.run.results.map((r) => ({ lesson: id, ...r })));
  }
  const everyPassed = [...records.values()].every((r) => lessonPassed(r));
  if (opts.json) {
    emitJson(opts, cases.map((r) => ({ ...r, name: r.case })));
    return everyPassed ? 0 : 1;
  }
  let module = "";
  for (const l of CATALOG) {
    if (l.module !== module) {
      module = l.module;
      console.log(chalk.bold(`\n${MODULE_TITLES[l.module]}`));
    }
    const record = records.get(l.id);
    const hints = Object.values(progress.hints[l.id] ?? {}).reduce((a, b) => a + b, 0);
    const written = existsSync(join(paths.lessons, l.file));
    const cell = records.has(l.id) ? progressCell(record) : chalk.dim(notReleased(l.id) ? "not released yet" : written ? "no graded exercises" : "not written yet");
    console.log(`  ${String(l.number).padStart(2)}  ${l.title.padEnd(44)} ${cell}${hints > 0 ? chalk.dim(` · ${hints} hint(s) used`) : ""}`);
  }
  console.log("");
  const others = records.size - regraded.length;
  if (opts.solutions) console.log(chalk.dim("graded solutions/ (nothing saved)"));
  else if (regraded.length > 0) console.log(chalk.dim(`re-graded ${regraded.join(", ")}${others > 0 ? `; ${others} other lesson(s) unchanged since their last grading` : ""} (${shown(progressFile())})`));
  else console.log(chalk.dim(`no exercise changed since the last grading (${shown(progressFile())}); \`npm run grade lesson-NN\` grades one afresh.`));
  const next = [...records.entries()].find(([, r]) => !lessonPassed(r));
  if (next && !opts.solutions) console.log(`Next: \`npm run grade ${next[0]}\`, or \`npm run watch ${next[0]}\` to re-grade on every save.`);
  return everyPassed ? 0 : 1;
}

await runCommand(USAGE, async () => {
  const opts = options(process.argv.slice(2));
  if (!opts.lesson) return progressCommand(opts);
  if (opts.compare) return compareCommand(opts.lesson, opts);
  return (await gradeAndReport(opts.lesson, opts)).code;
});
