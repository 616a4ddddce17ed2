/**
 * npm run gradebook -- <folder> [--assignment a1.json] [--secret <file>] [--lessons lesson-23,…]
 *                     [--out <dir>] [--feedback] [--jobs 2] [--timeout <s>] [--wall <s>] [--trusted]
 *                     [--roster <csv>] [--canvas-column <name>] [--no-cache]
 *
 * Grades every learner of a submissions folder (a subfolder, a git clone or a .zip a learner:
 * collect.ts) with the engine's isolated grader, two learners at a time (p-limit), on the public
 * cases and, with a secret, hidden ones (secret.ts); scores them by the assignment (points, credit
 * rule, late rule); keeps what it graded in a cache (cache.ts) so that a rerun grades only what
 * changed; and writes gradebook.csv, gradebook.json, summary.csv (Canvas's import layout),
 * gradebook.html and, with --feedback or --assignment, one feedback report a learner (pages.ts). Each submission runs in an OS sandbox (its own PID,
 * network and IPC namespaces, grader/engine/sandbox.ts); where there is none, the gradebook grades
 * only with --trusted. Rows are appended to gradebook.partial.csv as each lesson finishes, so a run
 * that is stopped or killed leaves what it finished. Exit codes: 0 the gradebook was written
 * (whatever the learners' verdicts), 1 some lesson could not be graded at all, 2 a usage error or no
 * OS sandbox, 130/143/129 stopped by SIGINT/SIGTERM/SIGHUP.
 */
import "./guard.js";
import chalk from "chalk";
import cliProgress from "cli-progress";
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { parseArgs } from "node:util";
import pLimit from "p-limit";
import { gradedLessons } from "../../grader/engine/paths.js";
import { osSandbox } from "../../grader/engine/sandbox.js";
import { summarise } from "../../grader/engine/summary.js";
import { gradedLesson, npmFlag, runCommand, UsageError } from "../loop/cli-support.js";
import { parse as parseCsv } from "csv-parse/sync";
import { homedir } from "node:os";
import { loadAssignment, type Assignment } from "../classroom/assignment.js";
import { ROOT } from "../../grader/engine/paths.js";
import { allRows, formatSummary, lessonRows, NO_ASSIGNMENT, oneLine, toCsv, toJson, type LearnerGrades } from "./book.js";
import { CACHE_FILE, GradingCache } from "./cache.js";
import { collect, type Collected } from "./collect.js";
import { canvasCsv, gradebookHtml, writeReturns, type RosterEntry } from "./pages.js";
import { learnerTotals } from "./scores.js";
import { identicalSubmissions } from "./similarity.js";
import { defaultSecretFile, loadSecret, type Secret } from "./secret.js";
import { gradeJob, isStopping, stopAll, stopNow, type LessonGrade } from "./jobs.js";
import { removeStaleStaging, submittedLessons } from "./submissions.js";

/** Where the rows go as each lesson finishes; removed once gradebook.csv is written. */
const PARTIAL = "gradebook.partial.csv";

const USAGE = `usage: npm run gradebook -- <folder> [--assignment a1.json] [--secret <file>] [--lessons lesson-23,lesson-24] [--out <dir>] [--feedback] [--jobs 2] [--timeout <s>] [--wall <s>] [--trusted] [--roster <csv>] [--canvas-column <name>] [--no-cache]

  <folder>       one submission a learner, named for the learner: a folder (a copy of the course with
                 exercises/lesson-NN/, or an exercises/ folder with lesson-NN/), a git clone (graded at
                 its last commit at or before the deadline), or a .zip of either
  --assignment   the assignment file (docs/INSTRUCTORS.md): only its lessons are graded, scored with its
                 points and credit rule, the late rule applied from each submission's time
  --secret       the instructor's secret file, made on first use, never inside a course or a submission:
                 each function is also graded on hidden cases (its random cases with secret seeds).
                 With --assignment and no --secret: ${defaultSecretFile().replace(homedir(), "~")}
  --lessons      the lessons to grade without an assignment (default: every graded lesson any learner submitted)
  --out          where the gradebook's files go (default: gradebook/ where npm was run)
  --feedback     also write feedback/<learner>.md and return/<learner>/ (always with --assignment)
  --roster       a CSV with a "learner" column (the submission's name) and Canvas's Student, ID,
                 SIS User ID, SIS Login ID, Section: fills summary.csv's identity columns
  --canvas-column  summary.csv's score column (default: the assignment's name; "a1 (12345)" matches
                 Canvas's assignment 12345)
  --no-cache     grade every lesson again (default: a learner's lesson whose files, course and
                 settings are unchanged is taken from <out>/${CACHE_FILE})
  --jobs         learners graded at a time (default 2)
  --timeout      seconds a case may run (default 10)
  --wall         seconds one learner's lesson may take in all (default 180)
  --trusted      grade even where there is no OS sandbox (Linux user namespaces): only if you trust
                 every submission, since each can then see and signal the other processes of your user

Each submission runs in an OS sandbox of its own (its own PID, network and IPC namespaces, via
unshare); where there is none, the gradebook refuses to grade (exit 2) unless you pass --trusted.

Output: gradebook.csv (one row a function: status, kind, file:line, cases, hidden cases, points,
score), gradebook.json (the same, each learner's totals and every case), summary.csv (one row a
learner: Canvas's gradebook-import columns), gradebook.html (learners × lessons, linking to the
feedback), feedback/<learner>.md and return/<learner>/feedback.{md,html} to hand back.

As each lesson is graded, its rows are appended to <out>/${PARTIAL} (in the order
lessons finish). When every lesson is graded, gradebook.csv, gradebook.json and feedback/ are
written and ${PARTIAL} is removed. A run stopped by Ctrl-C or SIGTERM, or killed, leaves
${PARTIAL} with every lesson it finished, and no new gradebook.csv (a previous run's stays as
it was). Stopping also ends the grading processes and removes the staged copies
(.grader-build/gradebook-<pid>-<n>); those of a killed run are removed by the next run.

Exit codes: 0 the gradebook was written, 1 some lesson could not be graded at all, 2 a usage error
or no OS sandbox, 130 stopped by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP.`;

interface Options {
  assignment?: Assignment;
  secretFile?: string;
  roster?: string;
  canvasColumn?: string;
  cache: boolean;
  folder: string;
  lessons?: string[];
  out: string;
  feedback: boolean;
  jobs: number;
  caseTimeoutMs: number;
  wallMs: number;
  trusted: boolean;
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
        assignment: { type: "string" },
        secret: { type: "string" },
        roster: { type: "string" },
        "canvas-column": { type: "string" },
        "no-cache": { type: "boolean" },
        out: { type: "string" },
        feedback: { type: "boolean" },
        jobs: { type: "string" },
        timeout: { type: "string" },
        wall: { type: "string" },
        trusted: { type: "boolean" },
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
  let assignment: Assignment | undefined;
  if (v.assignment !== undefined) {
    if (lessons) throw new UsageError("--lessons and --assignment both choose the lessons: give one (the assignment's lessons are graded)");
    try {
      assignment = loadAssignment(resolve(here, v.assignment));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (v.roster !== undefined && !existsSync(resolve(here, v.roster))) throw new UsageError(`--roster ${v.roster}: no such file`);
  return {
    assignment,
    secretFile: v.secret !== undefined ? resolve(here, v.secret) : assignment ? defaultSecretFile() : undefined,
    roster: v.roster === undefined ? undefined : resolve(here, v.roster),
    canvasColumn: v["canvas-column"],
    cache: !(v["no-cache"] === true || npmFlag("no-cache")),
    folder,
    lessons: lessons ? [...new Set(lessons)] : undefined,
    out,
    feedback: v.feedback === true || npmFlag("feedback"),
    jobs,
    caseTimeoutMs: seconds("timeout", v.timeout, 10, 3600) * 1000,
    wallMs: seconds("wall", v.wall, 180, 24 * 3600) * 1000,
    trusted: v.trusted === true || npmFlag("trusted"),
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
      console.error(`[${n}/${total}] ${oneLine(learner)} ${g.lesson}: ${what} (${g.cached ? "unchanged: from the cache" : `${(g.ms / 1000).toFixed(1)} s`})`);
    },
    stop() {},
  };
}

/** Exit codes after a signal: 128 + its number. */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** The roster: learner name → Canvas's identity columns. */
function readRoster(file: string | undefined): Map<string, RosterEntry> {
  if (!file) return new Map();
  let records: Array<Record<string, string>>;
  try {
    records = parseCsv(readFileSync(file, "utf8"), { columns: true, skip_empty_lines: true, bom: true }) as Array<Record<string, string>>;
  } catch (err) {
    throw new UsageError(`--roster ${file}: not a CSV file (${oneLine((err as Error).message)})`);
  }
  if (records.length > 0 && !("learner" in records[0])) throw new UsageError(`--roster ${file}: needs a "learner" column (the submission's folder or zip name) beside Student, ID, SIS User ID, SIS Login ID, Section`);
  return new Map(records.map((r) => [r.learner, r as RosterEntry]));
}

async function main(argv: string[]): Promise<number> {
  const opts = options(argv);
  const roster = readRoster(opts.roster);
  // Staged copies of gradebooks that were killed (SIGKILL leaves them): only those, in .grader-build/.
  const stale = removeStaleStaging();
  if (stale.length > 0) console.error(chalk.dim(`removed ${stale.length} staged cop${stale.length === 1 ? "y" : "ies"} left by a gradebook that no longer runs (.grader-build/${stale.join(", .grader-build/")})`));
  const graded = new Set(gradedLessons());
  const assignment = opts.assignment;
  if (assignment) {
    const ungradable = assignment.lessons.filter((l) => !graded.has(l));
    if (ungradable.length === assignment.lessons.length) throw new UsageError(`the assignment's lessons (${assignment.lessons.join(", ")}) have no graded exercises`);
    if (ungradable.length > 0) console.error(chalk.yellow(`the assignment's ${ungradable.join(", ")} ha${ungradable.length === 1 ? "s" : "ve"} no graded exercises: not graded`));
  }
  let collected: Collected;
  try {
    collected = await collect(opts.folder, { deadline: assignment?.deadline, lateDays: assignment?.late?.maxDaysLate, lessons: assignment?.lessons });
  } catch (err) {
    throw new UsageError(oneLine((err as Error).message));
  }
  process.on("exit", () => collected.dispose());
  const learners = collected.learners;
  if (collected.skipped.length > 0) console.error(chalk.yellow(`not a learner folder, skipped: ${collected.skipped.map(oneLine).join(", ")} (a learner's submission is a folder, a git clone or a .zip)`));
  if (learners.length === 0) throw new UsageError(`${opts.folder} holds no learner folders: put each learner's work in a subfolder of its own`);
  const lessons = assignment
    ? assignment.lessons.filter((l) => graded.has(l))
    : (opts.lessons ?? [...new Set(learners.flatMap(submittedLessons))].filter((l) => graded.has(l)).sort((a, b) => Number(a.slice(7)) - Number(b.slice(7))));
  if (lessons.length === 0) throw new UsageError(`no learner submitted a lesson with graded exercises: name the lessons with --lessons, e.g. --lessons ${gradedLessons()[0] ?? "lesson-23"}`);
  const scoring: Assignment = assignment ?? { ...NO_ASSIGNMENT, lessons };
  let secret: Secret | undefined;
  if (opts.secretFile) {
    try {
      secret = loadSecret(opts.secretFile, [
        { dir: ROOT, what: "the course" },
        { dir: opts.folder, what: "the submissions folder" },
        { dir: opts.out, what: "the output folder" },
      ]);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    console.error(chalk.dim(`${secret.created ? "made a new secret" : "secret"}: ${secret.file} (hidden cases on; keep it, or the hidden cases change)`));
  }
  const sandbox = osSandbox();
  if (!sandbox.available && !opts.trusted) {
    console.error(`the gradebook runs each submission in an OS sandbox (its own PID, network and IPC namespaces), and none is available here: ${sandbox.why}. Pass --trusted to grade anyway if you trust every submission.`);
    return 2;
  }
  if (!sandbox.available) console.error(chalk.yellow(`--trusted: no OS sandbox here (${sandbox.why}), so each submission runs under Node's permission model only and can see and signal the other processes of your user`));
  const shown = (p: string) => relative(process.env.INIT_CWD ?? process.cwd(), p) || ".";
  mkdirSync(opts.out, { recursive: true });
  const partial = join(opts.out, PARTIAL);
  writeFileSync(partial, toCsv([]));
  const total = learners.length * lessons.length;
  console.error(chalk.dim(`grading ${learners.length} learner(s) × ${lessons.join(", ")}, ${opts.jobs} at a time; rows go to ${shown(partial)} as each lesson finishes`));
  const t0 = Date.now();
  const bar = progress(total);
  let finished = 0;
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = SIGNAL_EXIT[signal] ?? 130;
    if (signalled) {
      // A second signal: no more waiting for the workers to end themselves.
      stopNow();
      process.exit(code);
    }
    signalled = signal;
    bar.stop();
    console.error(chalk.yellow(`\n${signal}: stopping the grading processes and removing the staged copies…`));
    void stopAll().then(() => {
      console.error(`stopped by ${signal}: ${finished} of ${total} lesson(s) were graded, their rows are in ${shown(partial)}; gradebook.csv and gradebook.json are written only when every lesson is graded`);
      process.exit(code);
    });
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const s of signals) process.on(s, onSignal);
  // An unexpected end (an exception, process.exit) still ends the workers and removes the staged copies.
  process.on("exit", stopNow);
  const limit = pLimit(opts.jobs);
  const cache = new GradingCache(opts.cache ? join(opts.out, CACHE_FILE) : undefined);
  const settings = `timeout=${opts.caseTimeoutMs} secret=${secret?.hash ?? "none"} sandbox=${!opts.trusted}`;
  const book: LearnerGrades[] = await Promise.all(
    learners.map((learner) =>
      limit(async () => {
        const grades: LessonGrade[] = [];
        for (const lesson of lessons) {
          let g = cache.get(learner, lesson, settings);
          if (!g) {
            g = await gradeJob(learner, lesson, { caseTimeoutMs: opts.caseTimeoutMs, wallMs: opts.wallMs, requireOsSandbox: !opts.trusted, hiddenSalt: secret?.salt(lesson) });
            // A lesson cut short by stopping is not a result: neither shown nor written.
            if (isStopping()) break;
            cache.put(learner, lesson, settings, g, g.bundled ?? []);
          }
          grades.push(g);
          appendFileSync(partial, toCsv(lessonRows(learner.name, g, scoring), { header: false }));
          finished++;
          bar.done(learner.name, g);
        }
        return { learner, lessons: grades };
      }),
    ),
  );
  // Stopped by a signal: the handler reports and exits once the workers are gone; nothing is written here.
  if (signalled) return new Promise<number>(() => undefined);
  bar.stop();
  for (const s of signals) process.off(s, onSignal);
  cache.save();
  const ms = Date.now() - t0;
  const rows = allRows(book, scoring);
  const totals = learnerTotals(rows, learners, scoring);
  const sandboxUsed = sandbox.available ? "OS namespaces (PID, network, IPC) for each submission" : `none (${sandbox.why}): graded with --trusted`;
  const roots = [opts.folder, ...learners.map((l) => l.dir)];
  const identical = identicalSubmissions(learners, lessons);
  writeFileSync(join(opts.out, "gradebook.csv"), toCsv(rows));
  writeFileSync(
    join(opts.out, "gradebook.json"),
    toJson(book, rows, {
      folder: opts.folder,
      lessons,
      caseTimeoutS: opts.caseTimeoutMs / 1000,
      wallS: opts.wallMs / 1000,
      jobs: opts.jobs,
      ms,
      sandbox: sandboxUsed,
      assignment: { ...scoring, deadline: scoring.deadline?.toISOString() },
      hiddenCases: secret ? "on: each random case also with seeds from the instructor's secret" : "off (no --secret)",
      cached: cache.hits,
      totals,
      identical,
    }),
  );
  writeFileSync(join(opts.out, "summary.csv"), canvasCsv(totals, opts.canvasColumn ?? scoring.name, roster));
  const withFeedback = opts.feedback || assignment !== undefined;
  const names = withFeedback ? writeReturns(book, rows, totals, opts.out, new Date(), roots) : undefined;
  writeFileSync(join(opts.out, "gradebook.html"), gradebookHtml(totals, lessons, scoring, (l) => (names?.has(l) ? `return/${encodeURIComponent(names.get(l)!)}/feedback.html` : "#"), new Date()));
  rmSync(partial, { force: true });
  console.log(formatSummary(rows, learners.map((l) => l.name)));
  console.log("", chalk.bold("totals"));
  for (const t of totals) console.log(`  ${oneLine(t.learner).padEnd(Math.max(8, ...learners.map((l) => l.name.length)))}  ${String(t.score).padStart(7)} / ${t.points}${t.daysLate > 0 ? chalk.dim(`  (${t.raw} × ${t.lateFactor}: ${t.daysLate} day(s) late)`) : ""}`);
  if (identical.length > 0) console.log("", chalk.bold("identical submissions (byte for byte, stubs left out)"), ...identical.map((g) => `\n  ${g.lesson}: ${g.learners.map(oneLine).join(", ")}`));
  console.log(chalk.dim(`\n${learners.length} learner(s) × ${lessons.length} lesson(s) in ${(ms / 1000).toFixed(1)} s, ${opts.jobs} at a time${cache.hits > 0 ? `; ${cache.hits} lesson(s) unchanged, taken from ${CACHE_FILE}` : ""}`));
  console.log(`wrote ${shown(join(opts.out, "gradebook.csv"))}, ${shown(join(opts.out, "gradebook.json"))}, summary.csv, gradebook.html${names ? `, ${shown(join(opts.out, "feedback"))}/ and ${shown(join(opts.out, "return"))}/ (${learners.length} learner(s))` : ""}`);
  collected.dispose();
  const ungraded = rows.filter((r) => r.status === "not-graded");
  if (ungraded.length > 0) console.error(chalk.red(`${ungraded.length} row(s) could not be graded at all (status not-graded): see their reason`));
  return ungraded.length > 0 ? 1 : 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
