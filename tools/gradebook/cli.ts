/**
 * npm run gradebook -- <folder> [--lessons lesson-23,…] [--out <dir>] [--feedback] [--jobs 2]
 *                     [--timeout <s>] [--wall <s>]
 *
 * Grades every learner of a submissions folder (one subfolder a learner) with the engine's isolated
 * grader, two learners at a time (p-limit), and writes gradebook.csv, gradebook.json and, with
 * --feedback, one markdown report a learner. Exit codes: 0 the gradebook was written (whatever the
 * learners' verdicts), 1 some lesson could not be graded at all, 2 a usage error.
 */
import chalk from "chalk";
import cliProgress from "cli-progress";
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import pLimit from "p-limit";
import { gradedLessons } from "../../grader/engine/paths.js";
import { summarise } from "../../grader/engine/summary.js";
import { gradedLesson, npmFlag, runCommand, UsageError } from "../loop/cli-support.js";
import { allRows, formatSummary, oneLine, toCsv, toJson, type LearnerGrades } from "./book.js";
import { writeFeedback } from "./feedback.js";
import { gradeJob, stopAll, type LessonGrade } from "./jobs.js";
import { findLearners, submittedLessons } from "./submissions.js";

const USAGE = `usage: npm run gradebook -- <folder> [--lessons lesson-23,lesson-24] [--out <dir>] [--feedback] [--jobs 2] [--timeout <s>] [--wall <s>]

  <folder>       one subfolder a learner: a copy of the course (exercises/lesson-NN/) or an exercises/ folder (lesson-NN/)
  --lessons      the lessons to grade (default: every graded lesson any learner submitted)
  --out          where gradebook.csv, gradebook.json and feedback/ go (default: gradebook/ where npm was run)
  --feedback     also write feedback/<learner>.md: each failing case, as \`npm run grade\` shows it
  --jobs         learners graded at a time (default 2)
  --timeout      seconds a case may run (default 10)
  --wall         seconds one learner's lesson may take in all (default 180)`;

interface Options {
  folder: string;
  lessons?: string[];
  out: string;
  feedback: boolean;
  jobs: number;
  caseTimeoutMs: number;
  wallMs: number;
}

function seconds(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const s = Number(value);
  if (!(s > 0 && s <= max)) throw new UsageError(`--${name} needs a number of seconds from 0.1 to ${max}, e.g. --${name} ${fallback}`);
  return s;
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function realish(p: string): string {
  return existsSync(p) ? realpathSync(p) : p;
}

function options(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        lessons: { type: "string" },
        out: { type: "string" },
        feedback: { type: "boolean" },
        jobs: { type: "string" },
        timeout: { type: "string" },
        wall: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values: v, positionals } = parsed;
  if (v.help) throw new UsageError("");
  if (positionals.length !== 1) {
    const eaten = ["lessons", "out", "jobs", "timeout", "wall"].filter((n) => npmFlag(n));
    const hint = eaten.length > 0 ? ` (npm took --${eaten.join(", --")} for itself: put \`--\` before the options, as below)` : "";
    throw new UsageError(positionals.length === 0 ? "which folder? Give the folder of submissions, one subfolder a learner." : `one folder, please: got ${positionals.join(" ")}${hint}`);
  }
  // npm runs scripts from the package root: relative paths are the caller's, from where npm was run.
  const here = process.env.INIT_CWD ?? process.cwd();
  const folder = resolve(here, positionals[0]);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${positionals[0]}: no such folder`);
  const jobs = v.jobs === undefined ? 2 : Number(v.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new UsageError("--jobs needs a whole number from 1 to 64, e.g. --jobs 2");
  const lessons = v.lessons?.split(",").map((l) => l.trim()).filter(Boolean).map((l) => gradedLesson(l, "gradebook -- <folder> --lessons").id);
  if (lessons?.length === 0) throw new UsageError(`--lessons needs at least one lesson, e.g. --lessons ${gradedLessons()[0] ?? "lesson-23"}`);
  const out = resolve(here, v.out ?? "gradebook");
  if (isInside(realish(out), realpathSync(folder))) throw new UsageError(`--out ${v.out ?? "gradebook"} lies inside ${positionals[0]}: it would be graded as a learner next time. Choose a folder outside it.`);
  if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${v.out}: that is a file, not a folder`);
  return {
    folder,
    lessons: lessons ? [...new Set(lessons)] : undefined,
    out,
    feedback: v.feedback === true || npmFlag("feedback"),
    jobs,
    caseTimeoutMs: seconds("timeout", v.timeout, 10, 3600) * 1000,
    wallMs: seconds("wall", v.wall, 180, 24 * 3600) * 1000,
  };
}

/** Progress: a bar on a terminal (cli-progress), one line a finished lesson otherwise. */
function progress(total: number): { done(learner: string, grade: LessonGrade): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar({ format: "grading {bar} {value}/{total} lessons · {last}", stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
    bar.start(total, 0, { last: "" });
    return { done: (learner, g) => bar.increment({ last: `${learner} ${g.lesson}` }), stop: () => bar.stop() };
  }
  let n = 0;
  return {
    done(learner, g) {
      n++;
      const fns = summarise(g.results);
      const what = g.problem ? `${g.problem.status}: ${oneLine(g.problem.message)}` : `${fns.filter((f) => f.verdict === "passed").length}/${fns.length} functions pass`;
      console.error(`[${n}/${total}] ${oneLine(learner)} ${g.lesson}: ${what} (${(g.ms / 1000).toFixed(1)} s)`);
    },
    stop() {},
  };
}

async function main(argv: string[]): Promise<number> {
  const opts = options(argv);
  const learners = findLearners(opts.folder);
  const skipped = readdirSync(opts.folder).filter((e) => !e.startsWith(".") && !learners.some((l) => l.name === e));
  if (skipped.length > 0) console.error(chalk.yellow(`not a learner folder, skipped: ${skipped.map(oneLine).join(", ")} (unpack archives into a folder a learner)`));
  if (learners.length === 0) throw new UsageError(`${opts.folder} holds no learner folders: put each learner's work in a subfolder of its own`);
  const graded = new Set(gradedLessons());
  const lessons = opts.lessons ?? [...new Set(learners.flatMap(submittedLessons))].filter((l) => graded.has(l)).sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  if (lessons.length === 0) throw new UsageError(`no learner submitted a lesson with graded exercises: name the lessons with --lessons, e.g. --lessons ${gradedLessons()[0] ?? "lesson-23"}`);
  console.error(chalk.dim(`grading ${learners.length} learner(s) × ${lessons.join(", ")}, ${opts.jobs} at a time`));
  const t0 = Date.now();
  const bar = progress(learners.length * lessons.length);
  const onSignal = () => {
    bar.stop();
    stopAll();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const limit = pLimit(opts.jobs);
  const book: LearnerGrades[] = await Promise.all(
    learners.map((learner) =>
      limit(async () => {
        const grades: LessonGrade[] = [];
        for (const lesson of lessons) {
          const g = await gradeJob(learner, lesson, opts);
          grades.push(g);
          bar.done(learner.name, g);
        }
        return { learner, lessons: grades };
      }),
    ),
  );
  bar.stop();
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  const ms = Date.now() - t0;
  const rows = allRows(book);
  mkdirSync(opts.out, { recursive: true });
  writeFileSync(join(opts.out, "gradebook.csv"), toCsv(rows));
  writeFileSync(join(opts.out, "gradebook.json"), toJson(book, rows, { folder: opts.folder, lessons, caseTimeoutS: opts.caseTimeoutMs / 1000, wallS: opts.wallMs / 1000, jobs: opts.jobs, ms }));
  const feedback = opts.feedback ? writeFeedback(book, opts.out, new Date()) : undefined;
  console.log(formatSummary(rows, learners.map((l) => l.name)));
  const shown = (p: string) => relative(process.env.INIT_CWD ?? process.cwd(), p) || ".";
  console.log(chalk.dim(`\n${learners.length} learner(s) × ${lessons.length} lesson(s) in ${(ms / 1000).toFixed(1)} s, ${opts.jobs} at a time`));
  console.log(`wrote ${shown(join(opts.out, "gradebook.csv"))}, ${shown(join(opts.out, "gradebook.json"))}${feedback ? `, ${shown(feedback)}/ (${learners.length} file(s))` : ""}`);
  const ungraded = rows.filter((r) => r.status === "not-graded");
  if (ungraded.length > 0) console.error(chalk.red(`${ungraded.length} row(s) could not be graded at all (status not-graded): see their reason`));
  return ungraded.length > 0 ? 1 : 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
