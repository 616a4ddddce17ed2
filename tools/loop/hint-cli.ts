/**
 * npm run hint lesson-NN [function]
 *
 * Reveals the next tier of hints for a function (a nudge, then the key idea, then the formula),
 * with the tiers already seen above it. Without a function it picks the first one that did not pass
 * at the last grading. Tiers seen are saved in the progress file.
 */
import chalk from "chalk";
import { lessonFunctionNames, nearestName } from "../../grader/functions.js";
import { TIERS } from "../../grader/engine/hint-types.js";
import { anyLesson, parseArgs, runCommand, UsageError } from "./cli-support.js";
import { functionToHint, loadHints } from "./hints.js";
import { readProgress, updateProgress } from "./progress.js";
import { lessonFileShown, loadLessonZh, localHints, say, TIER_LABELS_ZH, zh } from "../../grader/i18n.js";
import { formatHintTiers, tierLabel } from "./hint-format.js";

const USAGE = `usage: npm run hint lesson-NN [function]

  npm run hint lesson-23              the next hint for the first function that does not pass yet
  npm run hint lesson-23 maskedGae    the next hint for maskedGae

Each call reveals one more tier: ${TIERS.map((t) => t.label).join(", then ")}.`;

/** USAGE in Chinese (COURSE_LANG=zh). */
const USAGE_ZH = `用法：npm run hint lesson-NN [函数名]

  npm run hint lesson-23              给第一个还没通过的函数的下一条提示
  npm run hint lesson-23 maskedGae    给 maskedGae 的下一条提示

每运行一次多揭示一层：${TIERS.map((t) => TIER_LABELS_ZH[t.key]).join("，然后是")}。`;

/**
 * Why `name` gets no hint, with the nearest name when it looks like a typo (as `npm run grade`
 * says it): not a function of the lesson, or one without hints.
 */
function unknownFunction(lesson: string, name: string, hinted: readonly string[]): string {
  if (zh()) return unknownFunctionZh(lesson, name, hinted);
  const all = lessonFunctionNames(lesson);
  if (all.includes(name)) return `${lesson} has no hints for ${name} yet. Functions with hints: ${hinted.join(", ")}`;
  const nearest = nearestName(name, [...hinted, ...all.filter((n) => !hinted.includes(n))]);
  const hint = nearest !== undefined && hinted.includes(nearest) ? nearest : undefined;
  return (
    `${lesson} has no function named "${name}".${nearest ? ` Did you mean ${nearest}?` : ""} Its functions: ${(all.length > 0 ? all : hinted).join(", ")}` +
    (hint ? `\n  npm run hint ${lesson} ${hint}` : "")
  );
}

/** unknownFunction in Chinese. */
function unknownFunctionZh(lesson: string, name: string, hinted: readonly string[]): string {
  const all = lessonFunctionNames(lesson);
  if (all.includes(name)) return `${lesson} 还没有 ${name} 的提示。有提示的函数：${hinted.join(", ")}`;
  const nearest = nearestName(name, [...hinted, ...all.filter((n) => !hinted.includes(n))]);
  const hint = nearest !== undefined && hinted.includes(nearest) ? nearest : undefined;
  return (
    `${lesson} 没有名为 "${name}" 的函数。${nearest ? `你是不是想写 ${nearest}？` : ""}它的函数：${(all.length > 0 ? all : hinted).join(", ")}` +
    (hint ? `\n  npm run hint ${lesson} ${hint}` : "")
  );
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: [] });
  if (args.positional.length > 2) throw new UsageError(say(`too many arguments: ${args.positional.join(" ")}`, `参数太多：${args.positional.join(" ")}`));
  const lesson = anyLesson(args.positional[0], "hint");
  const english = await loadHints(lesson.id);
  // In Chinese, each tier from grader/<lesson>/zh.ts where it has one, else the English tier.
  const hints = english && zh() ? localHints(english, await loadLessonZh(lesson.id)) : english;
  if (!hints && zh()) {
    console.log(
      `${lesson.id}（${lesson.title}）还没有提示，抱歉。\n` +
        `它的讲解 ${lessonFileShown(lesson.file)} 用评分器最先检查的那组数字完整演算了一个例子；` +
        `当你的输出与某个已知错误一致时，\`npm run grade ${lesson.id}\` 会指出它。`,
    );
    return 0;
  }
  if (!hints) {
    console.log(
      `${lesson.id} (${lesson.title}) has no hints yet, sorry.\n` +
        `Its explainer, lessons/${lesson.file}, works through an example with the same numbers the grader checks first, ` +
        `and \`npm run grade ${lesson.id}\` names a known mistake when your output matches one.`,
    );
    return 0;
  }
  const progress = readProgress();
  const names = Object.keys(hints.functions);
  let name: string | undefined = args.positional[1];
  if (name === undefined) {
    name = functionToHint(hints, progress.lessons[lesson.id]);
    if (name === undefined) {
      if (zh()) {
        console.log(chalk.green(`上次评分时 ${lesson.id} 的每个函数都通过了：不需要提示。`));
        console.log(`\`npm run grade ${lesson.id} -- --compare\` 会把你的代码和参考答案并排显示。`);
        return 0;
      }
      console.log(chalk.green(`Every function of ${lesson.id} passed at your last grading: no hint needed.`));
      console.log(`\`npm run grade ${lesson.id} -- --compare\` shows your code beside the reference.`);
      return 0;
    }
  } else if (!hints.functions[name]) {
    throw new UsageError(unknownFunction(lesson.id, name, names));
  }
  const fnHints = hints.functions[name];
  const seen = progress.hints[lesson.id]?.[name] ?? 0;
  const showing = Math.min(seen + 1, TIERS.length);
  if (showing > seen) {
    updateProgress((p) => {
      p.hints[lesson.id] = { ...p.hints[lesson.id], [name]: showing };
    });
  }
  const width = Math.min(process.stdout.columns || 100, 100);
  console.log(formatHintTiers({ lesson: lesson.id, name, hints: fnHints, showing, seen, width }));
  console.log("");
  if (showing < TIERS.length && zh()) {
    console.log(chalk.dim(`再运行一次 \`npm run hint ${lesson.id} ${name}\`，看下一层：${tierLabel(TIERS[showing])}。`));
  } else if (zh()) {
    console.log(
      chalk.dim(
        `这就是 ${name} 的全部提示。如果评分器仍然不认可，请对照 ${lessonFileShown(lesson.file)} 里的演算示例检查你的数字，` +
          `再用 \`npm run grade ${lesson.id} ${name} -- --verbose\` 逐个查看失败的用例。`,
      ),
    );
  } else if (showing < TIERS.length) {
    console.log(chalk.dim(`Run \`npm run hint ${lesson.id} ${name}\` again for ${TIERS[showing].label}.`));
  } else {
    console.log(
      chalk.dim(
        `That is every hint for ${name}. If the grader still disagrees, check your numbers against the worked example in lessons/${lesson.file}, ` +
          `then read every failing case with \`npm run grade ${lesson.id} ${name} -- --verbose\`.`,
      ),
    );
  }
  return 0;
}

await runCommand(say(USAGE, USAGE_ZH), main);
