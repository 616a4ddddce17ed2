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
import { CATALOG, MODULE_TITLES, MODULE_TITLES_ZH, type LessonInfo } from "../../lib/catalog.js";
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
import { lessonTitle, localiseMistakes, padDisplay, say, zh } from "../../grader/i18n.js";
import { zhMessage } from "../../grader/messages-zh.js";

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

/** USAGE in Chinese (COURSE_LANG=zh). */
const USAGE_ZH = `用法：npm run grade -- [lesson-NN [函数名]] [--solutions] [--json | --json-file <file.json>] [--verbose] [--timeout <秒数>] [--compare]

  npm run grade                          所有课程的进度（只重新评分你改动过的课程）
  npm run grade lesson-23                评分 exercises/lesson-23
  npm run grade lesson-23 maskedGae      只评分一个函数
  npm run grade lesson-23 -- --compare   课程通过之后：把你的代码和参考答案并排显示
  npm run grade -- lesson-23 --solutions 改为评分参考答案
  npm run -s grade -- lesson-23 --json   以 JSON 输出结果到 stdout（-s：不显示 npm 的横幅；JSON 始终是英文）
  npm run grade -- lesson-23 --json-file out.json   把同样的 JSON 写入文件`;

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
  if (a.positional.length > 2) throw new UsageError(say(`too many arguments: ${a.positional.join(" ")}`, `参数太多：${a.positional.join(" ")}`));
  const timeout = a.values.get("--timeout");
  const seconds = timeout === undefined ? 10 : Number(timeout);
  if (!(seconds > 0 && seconds <= MAX_TIMEOUT_S)) throw new UsageError(say(`--timeout needs a number of seconds from 0.1 to ${MAX_TIMEOUT_S}, e.g. --timeout 20`, `--timeout 需要 0.1 到 ${MAX_TIMEOUT_S} 之间的秒数，例如 --timeout 20`));
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
  if (opts.compare && !opts.lesson) throw new UsageError(say("--compare needs a lesson: npm run grade lesson-23 -- --compare", "--compare 需要指定课程：npm run grade lesson-23 -- --compare"));
  if (opts.compare && (opts.solutions || opts.json)) throw new UsageError(say("--compare compares your exercises with the reference: leave out --solutions and --json", "--compare 是拿你的练习和参考答案比较：去掉 --solutions 和 --json"));
  exercisesDir(); // a bad COURSE_EXERCISES_DIR is a usage error before any grading starts
  if (opts.lesson && opts.only) checkFunctionName(opts.lesson, opts.only);
  return opts;
}

/** The --json-file path, checked: a .json file in an existing folder outside the learner's exercises. */
function jsonFileOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const file = resolve(value);
  if (!file.endsWith(".json")) throw new UsageError(say(`--json-file ${value}: give a .json file name, e.g. --json-file results.json`, `--json-file ${value}：请给一个 .json 文件名，例如 --json-file results.json`));
  if (!existsSync(dirname(file))) throw new UsageError(say(`--json-file ${value}: the folder ${shown(dirname(file))} does not exist`, `--json-file ${value}：文件夹 ${shown(dirname(file))} 不存在`));
  const exercises = resolve(exercisesDir());
  if (file.startsWith(exercises + sep)) throw new UsageError(say(`--json-file ${value}: write it outside ${shown(exercises)}, where your own files are`, `--json-file ${value}：请写到 ${shown(exercises)} 之外，那里放的是你自己的文件`));
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
  if (zh()) {
    throw new UsageError(
      `${lesson.id} 没有名为 "${name}" 的函数。${nearest ? `你是不是想写 ${nearest}？` : ""}它的函数：${names.join(", ")}` + (nearest ? `\n  npm run grade ${lesson.id} ${nearest}` : ""),
    );
  }
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
    console.error(chalk.red(say(`could not grade ${lesson.id}: ${run.fatal.message}`, `无法评分 ${lesson.id}：${zhMessage(run.fatal.message)}`)));
    return { code: run.fatal.usage ? 2 : 1, graded };
  }
  if (opts.only && run.results.length === 0) {
    console.error(say(`${lesson.id} has no function named "${opts.only}".`, `${lesson.id} 没有名为 "${opts.only}" 的函数。`));
    return { code: 2, graded };
  }
  const code = allPassed(run.results) ? 0 : 1;
  if (opts.json) {
    // JSON is for scripts: it stays English whatever COURSE_LANG says (mistakes included).
    emitJson(opts, run.results.map((r) => ({ lesson: lesson.id, ...r, name: r.case })));
    return { code, graded };
  }
  const { formatGradedLesson, nextStepLine } = await report!;
  // The named mistakes in the learner's language (the same summaries, untouched, in English).
  const shownSummaries = await localiseMistakes(lesson.id, summaries);
  const where = opts.solutions ? "solutions" : shown(exercisesDir());
  const calls = lessonCalls(opts.solutions ? join(paths.solutions, lesson.id) : lessonExercisesDir(lesson.id), summaries.map((s) => s.exercise));
  console.log(
    formatGradedLesson(run, shownSummaries, {
      title: `${lesson.id} · ${lessonTitle(lesson)}  ${chalk.dim(`(${where}/${lesson.id})`)}`,
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
    if (zh()) console.log(chalk.green(`${opts.only ?? lesson.id} 已通过`) + chalk.dim(`（评分于 ${new Date(saved.gradedAt).toLocaleString()}；此后你的文件没有改动）。`));
    else console.log(chalk.green(`${opts.only ?? lesson.id} passes`) + chalk.dim(` (graded ${new Date(saved.gradedAt).toLocaleString()}; your files have not changed since).`));
  } else {
    const { code, graded } = await gradeAndReport(lesson, opts);
    if (code === 2) return 2;
    summaries = graded.summaries;
    if (code !== 0) {
      const passed = summaries.filter((s) => s.verdict === "passed").length;
      console.log("");
      if (zh()) {
        console.log(
          chalk.yellow(`为了不剧透练习，--compare 只在你的代码通过之后才显示参考答案：现在有 ${passed}/${summaries.length} 个函数通过。`) +
            `\n继续用 \`npm run grade ${lesson.id}\`；\`npm run hint ${lesson.id}\` 会一次揭示一条提示。`,
        );
      } else {
        console.log(
          chalk.yellow(`--compare shows the reference solution only once your code passes, so that it never spoils an exercise: ${passed}/${summaries.length} function(s) pass now.`) +
            `\nKeep going with \`npm run grade ${lesson.id}\`; \`npm run hint ${lesson.id}\` reveals hints one at a time.`,
        );
      }
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
    if (!opts.json) console.error(chalk.dim(say(`grading ${id}${saved ? " (changed since it was last graded)" : ""} …`, `正在评分 ${id}${saved ? "（上次评分后有改动）" : ""} ……`)));
    const g = await gradeLesson(id, { solutions: opts.solutions, caseTimeoutMs: opts.timeoutMs });
    records.set(id, g.record ?? lessonRecord("", g.summaries, g.run.fatal?.message));
    regraded.push(id);
    cases.push(...g.run.results.map((r) => ({ lesson: id, ...r })));
  }
  const everyPassed = [...records.values()].every((r) => lessonPassed(r));
  if (opts.json) {
    // English whatever COURSE_LANG says: JSON is for scripts.
    emitJson(opts, cases.map((r) => ({ ...r, name: r.case })));
    return everyPassed ? 0 : 1;
  }
  let module = "";
  for (const l of CATALOG) {
    if (l.module !== module) {
      module = l.module;
      console.log(chalk.bold(`\n${(zh() ? MODULE_TITLES_ZH : MODULE_TITLES)[l.module]}`));
    }
    const record = records.get(l.id);
    const hints = Object.values(progress.hints[l.id] ?? {}).reduce((a, b) => a + b, 0);
    const written = existsSync(join(paths.lessons, l.file));
    const cell = records.has(l.id)
      ? progressCell(record)
      : chalk.dim(notReleased(l.id) ? say("not released yet", "尚未发布") : written ? say("no graded exercises", "没有评分练习") : say("not written yet", "尚未编写"));
    console.log(`  ${String(l.number).padStart(2)}  ${zh() ? padDisplay(lessonTitle(l), 44) : l.title.padEnd(44)} ${cell}${hints > 0 ? chalk.dim(say(` · ${hints} hint(s) used`, ` · 已用 ${hints} 条提示`)) : ""}`);
  }
  console.log("");
  const others = records.size - regraded.length;
  if (zh()) {
    if (opts.solutions) console.log(chalk.dim("已评分 solutions/（未保存任何结果）"));
    else if (regraded.length > 0) console.log(chalk.dim(`已重新评分 ${regraded.join(", ")}${others > 0 ? `；另有 ${others} 节课自上次评分以来没有改动` : ""}（${shown(progressFile())}）`));
    else console.log(chalk.dim(`自上次评分以来没有练习改动（${shown(progressFile())}）；\`npm run grade lesson-NN\` 会重新评分一节课。`));
  } else if (opts.solutions) console.log(chalk.dim("graded solutions/ (nothing saved)"));
  else if (regraded.length > 0) console.log(chalk.dim(`re-graded ${regraded.join(", ")}${others > 0 ? `; ${others} other lesson(s) unchanged since their last grading` : ""} (${shown(progressFile())})`));
  else console.log(chalk.dim(`no exercise changed since the last grading (${shown(progressFile())}); \`npm run grade lesson-NN\` grades one afresh.`));
  const next = [...records.entries()].find(([, r]) => !lessonPassed(r));
  if (next && !opts.solutions) {
    console.log(say(`Next: \`npm run grade ${next[0]}\`, or \`npm run watch ${next[0]}\` to re-grade on every save.`, `下一步：\`npm run grade ${next[0]}\`，或用 \`npm run watch ${next[0]}\` 在每次保存时重新评分。`));
  }
  return everyPassed ? 0 : 1;
}

await runCommand(say(USAGE, USAGE_ZH), async () => {
  const opts = options(process.argv.slice(2));
  if (!opts.lesson) return progressCommand(opts);
  if (opts.compare) return compareCommand(opts.lesson, opts);
  return (await gradeAndReport(opts.lesson, opts)).code;
});
