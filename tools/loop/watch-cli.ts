/**
 * npm run watch lesson-NN [function] [-- --timeout <s>]
 *
 * Vitest's watch mode on the lesson's grade tests (grader/vitest/): every save of one of the
 * lesson's exercise files re-runs them, and the view shows one line per function. Each grading runs
 * the learner's code in a fresh sandboxed process (grader/engine/isolate.ts), so the edited file is
 * always the one graded, and a function stuck in an endless loop is stopped.
 */
import chalk from "chalk";
import { existsSync, watch } from "node:fs";
import type { TestModule } from "vitest/node";
import { gradedLesson, parseArgs, runCommand, UsageError } from "./cli-support.js";
import { lessonExercisesDir, shown } from "./locations.js";
import { debouncedRunner } from "./schedule.js";
import { functionLines } from "./status.js";
import { functionFilter, gradedOf, lessonTestFile, settingsEnv } from "../../grader/vitest/run.js";
import { lessonTitle, localiseMistakes, say, zh } from "../../grader/i18n.js";
import { zhMessage } from "../../grader/messages-zh.js";

const USAGE = `usage: npm run watch lesson-NN [function] [-- --timeout <seconds>]

  npm run watch lesson-23              re-grade lesson-23 on every save of exercises/lesson-23/*.ts
  npm run watch lesson-23 maskedGae    only maskedGae

Stop with Ctrl-C.`;

/** USAGE in Chinese (COURSE_LANG=zh). */
const USAGE_ZH = `用法：npm run watch lesson-NN [函数名] [-- --timeout <秒数>]

  npm run watch lesson-23              每次保存 exercises/lesson-23/*.ts 时重新评分 lesson-23
  npm run watch lesson-23 maskedGae    只评分 maskedGae

按 Ctrl-C 停止。`;

/** Long enough for an editor's write-rename-chmod burst to settle. */
const SETTLE_MS = 150;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: [], values: ["--timeout"] });
  if (args.positional.length > 2) throw new UsageError(say(`too many arguments: ${args.positional.join(" ")}`, `参数太多：${args.positional.join(" ")}`));
  const lesson = gradedLesson(args.positional[0], "watch");
  const only = args.positional[1];
  const seconds = Number(args.values.get("--timeout") ?? 10);
  if (!(seconds > 0)) throw new UsageError(say("--timeout needs a number of seconds, e.g. --timeout 20", "--timeout 需要一个秒数，例如 --timeout 20"));
  const dir = lessonExercisesDir(lesson.id);
  if (!existsSync(dir)) throw new Error(say(`${shown(dir)} is missing: \`npm run reset ${lesson.id}\` puts the stubs back.`, `${shown(dir)} 不存在：\`npm run reset ${lesson.id}\` 会把练习桩放回去。`));
  const interactive = process.stdout.isTTY === true;

  let started = Date.now();
  const show = async (modules: ReadonlyArray<TestModule>) => {
    const graded = modules.map(gradedOf).find((g) => g !== undefined);
    // The named mistakes in the learner's language (untouched in English); read before the screen clears.
    const summaries = await localiseMistakes(lesson.id, graded?.summaries ?? []);
    if (interactive) process.stdout.write("\x1b[2J\x1b[3J\x1b[H");
    else console.log("");
    console.log(chalk.bold(`${lesson.id} · ${lessonTitle(lesson)}`) + chalk.dim(say(`  watching ${shown(dir)}/ (Ctrl-C to stop)`, `  正在监视 ${shown(dir)}/（按 Ctrl-C 停止）`)));
    console.log("");
    if (!graded) console.log(chalk.red(say("could not grade: vitest reported no grading (see above)", "无法评分：vitest 没有报告评分结果（见上文）")));
    else if (graded.run.fatal) console.log(chalk.red(say(`could not grade: ${graded.run.fatal.message}`, `无法评分：${zhMessage(graded.run.fatal.message)}`)));
    else if (only && summaries.length === 0) console.log(chalk.red(say(`${lesson.id} has no function named "${only}"`, `${lesson.id} 没有名为 "${only}" 的函数`)));
    else for (const line of functionLines(summaries, process.stdout.columns || 120)) console.log(`  ${line}`);
    const passed = summaries.filter((s) => s.verdict === "passed").length;
    const colour = passed === summaries.length && passed > 0 ? chalk.green : chalk.yellow;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log("");
    if (zh()) console.log(colour(`${passed}/${summaries.length} 个函数通过`) + chalk.dim(` · 评分于 ${new Date().toLocaleTimeString()}，用时 ${seconds} s`));
    else console.log(colour(`${passed}/${summaries.length} functions pass`) + chalk.dim(` · graded at ${new Date().toLocaleTimeString()} in ${seconds} s`));
    if (passed < summaries.length) {
      console.log(chalk.dim(say(`details: npm run grade ${lesson.id}${only ? ` ${only}` : ""} · a hint: npm run hint ${lesson.id}`, `详情：npm run grade ${lesson.id}${only ? ` ${only}` : ""} · 提示：npm run hint ${lesson.id}`)));
    }
  };

  Object.assign(process.env, settingsEnv({ solutions: false, only, caseTimeoutMs: seconds * 1000 }));
  console.log(chalk.dim(say(`grading ${lesson.id} …`, `正在评分 ${lesson.id} ……`)));
  const { startVitest } = await import("vitest/node");
  const vitest = await startVitest("test", [lessonTestFile(lesson.id)], {
    project: "grade",
    watch: true,
    reporters: [{ onTestRunEnd: show }],
    testNamePattern: only ? functionFilter(lesson.id, only) : undefined,
    // Saves are caught below, wherever COURSE_EXERCISES_DIR is (vite watches only the course folder).
    forceRerunTriggers: [],
  });
  if (!vitest) throw new Error("vitest did not start");
  const runner = debouncedRunner(async () => {
    started = Date.now();
    await vitest.rerunTestSpecifications(await vitest.getRelevantTestSpecifications([lessonTestFile(lesson.id)]));
  }, SETTLE_MS);
  const watcher = watch(dir, (_event, file) => {
    if (file && !String(file).endsWith(".ts")) return;
    if (!runner.busy()) console.log(chalk.dim(say("change saved: grading …", "已保存改动：正在评分 ……")));
    runner.trigger();
  });
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  watcher.close();
  runner.stop();
  await vitest.close();
  return 0;
}

await runCommand(say(USAGE, USAGE_ZH), main);
