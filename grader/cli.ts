/**
 * npm run grade [lesson-NN [function]] [--solutions] [--json] [--verbose] [--timeout <s>]
 *
 * Grades exercises/<lesson> (or solutions/ with --solutions) in a child process with a per-case
 * time limit. Without a lesson it prints a progress table over the whole course.
 * Exit codes: 0 everything passed, 1 something failed or is unfinished, 2 usage error.
 */
import chalk from "chalk";
import { join } from "node:path";
import { CATALOG, MODULE_TITLES, findLesson, type LessonInfo } from "../lib/catalog.js";
import { gradeIsolated, type IsolatedRun } from "./engine/isolate.js";
import { gradedLessons, paths } from "./engine/paths.js";
import { allPassed, summarise } from "./engine/summary.js";
import { formatLessonReport, formatTotals } from "./report.js";

const USAGE = `usage: npm run grade -- [lesson-NN [function]] [--solutions] [--json] [--verbose] [--timeout <seconds>]

  npm run grade                      progress over every lesson
  npm run grade lesson-23            grade exercises/lesson-23
  npm run grade lesson-23 maskedGae  grade one function
  npm run grade -- lesson-23 --solutions   grade the reference solutions instead`;

class UsageError extends Error {}

interface Args {
  lesson?: LessonInfo;
  only?: string;
  solutions: boolean;
  json: boolean;
  verbose: boolean;
  timeoutMs: number;
}

/** npm turns `npm run grade lesson-23 --json` (without `--`) into npm_config_json=true: honour it. */
function npmFlag(name: string): boolean {
  const v = process.env[`npm_config_${name}`];
  return v === "true" || v === "";
}

function parseArgs(argv: string[]): Args {
  const args: Args = { solutions: npmFlag("solutions"), json: npmFlag("json"), verbose: npmFlag("verbose"), timeoutMs: 10_000 };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--solutions") args.solutions = true;
    else if (a === "--json") args.json = true;
    else if (a === "--verbose" || a === "-v") args.verbose = true;
    else if (a === "--timeout") {
      const s = Number(argv[++i]);
      if (!(s > 0)) throw new UsageError("--timeout needs a number of seconds, e.g. --timeout 20");
      args.timeoutMs = s * 1000;
    } else if (a === "--help" || a === "-h") throw new UsageError("");
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  if (positional.length > 2) throw new UsageError(`too many arguments: ${positional.join(" ")}`);
  if (positional[0] !== undefined) {
    const lesson = findLesson(positional[0]);
    const graded = gradedLessons();
    if (!lesson) throw new UsageError(`unknown lesson "${positional[0]}". Lessons with graded exercises: ${graded.join(", ")}`);
    if (!graded.includes(lesson.id)) {
      throw new UsageError(`${lesson.id} (${lesson.title}) has no graded exercises. Lessons with graded exercises: ${graded.join(", ")}`);
    }
    args.lesson = lesson;
  }
  args.only = positional[1];
  return args;
}

async function gradeOne(lesson: LessonInfo, args: Args): Promise<IsolatedRun> {
  const implDir = join(args.solutions ? paths.solutions : paths.exercises, lesson.id);
  return gradeIsolated(
    { lesson: lesson.id, implDir, only: args.only ? [args.only] : undefined, hints: !args.solutions },
    { caseTimeoutMs: args.timeoutMs },
  );
}

async function gradeLessonCommand(lesson: LessonInfo, args: Args): Promise<number> {
  const t0 = Date.now();
  const run = await gradeOne(lesson, args);
  if (run.fatal) {
    console.error(chalk.red(`could not grade ${lesson.id}: ${run.fatal.message}`));
    return run.fatal.usage ? 2 : 1;
  }
  if (args.only && run.results.length === 0) {
    console.error(`${lesson.id} has no function named "${args.only}".`);
    return 2;
  }
  if (args.json) {
    console.log(JSON.stringify(run.results.map((r) => ({ lesson: lesson.id, ...r, name: r.case })), null, 2));
    return allPassed(run.results) ? 0 : 1;
  }
  const where = args.solutions ? "solutions" : "exercises";
  const summaries = summarise(run.results);
  console.log(formatLessonReport(`${lesson.id} · ${lesson.title}  ${chalk.dim(`(${where}/${lesson.id})`)}`, summaries, { verbose: args.verbose }));
  console.log("");
  console.log(formatTotals(summaries, Date.now() - t0, run.backend));
  if (!allPassed(run.results) && !args.solutions) console.log(chalk.dim(`Read lessons/${lesson.file}, then run \`npm run grade ${lesson.id}\` again.`));
  return allPassed(run.results) ? 0 : 1;
}

async function progressCommand(args: Args): Promise<number> {
  const graded = gradedLessons();
  const runs = new Map<string, IsolatedRun>();
  for (const id of graded) runs.set(id, await gradeOne(findLesson(id)!, args));
  if (args.json) {
    console.log(JSON.stringify([...runs.entries()].flatMap(([lesson, run]) => run.results.map((r) => ({ lesson, ...r, name: r.case }))), null, 2));
  } else {
    let module = "";
    for (const l of CATALOG) {
      if (l.module !== module) {
        module = l.module;
        console.log(chalk.bold(`\n${MODULE_TITLES[l.module]}`));
      }
      console.log(`  ${String(l.number).padStart(2)}  ${l.title.padEnd(44)} ${progressCell(runs.get(l.id))}`);
    }
  }
  const everything = [...runs.values()];
  return everything.every((r) => !r.fatal && allPassed(r.results)) ? 0 : 1;
}

function progressCell(run: IsolatedRun | undefined): string {
  if (!run) return chalk.dim("no graded exercises");
  if (run.fatal) return chalk.red(`could not grade: ${run.fatal.message}`);
  const s = summarise(run.results);
  const passed = s.filter((f) => f.verdict === "passed").length;
  if (passed === s.length) return chalk.green(`✓ ${passed}/${s.length} functions`);
  if (s.every((f) => f.verdict === "not-implemented")) return chalk.dim(`not started (0/${s.length})`);
  return chalk.yellow(`${passed}/${s.length} functions`);
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) console.error(chalk.red(err.message));
    console.error(USAGE);
    return 2;
  }
  return args.lesson ? gradeLessonCommand(args.lesson, args) : progressCommand(args);
}

process.exitCode = await main();
