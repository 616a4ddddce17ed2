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

const USAGE = `usage: npm run hint lesson-NN [function]

  npm run hint lesson-23              the next hint for the first function that does not pass yet
  npm run hint lesson-23 maskedGae    the next hint for maskedGae

Each call reveals one more tier: ${TIERS.map((t) => t.label).join(", then ")}.`;

/** Wraps `text` to `width` columns, each line starting with `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

/**
 * Why `name` gets no hint, with the nearest name when it looks like a typo (as `npm run grade`
 * says it): not a function of the lesson, or one without hints.
 */
function unknownFunction(lesson: string, name: string, hinted: readonly string[]): string {
  const all = lessonFunctionNames(lesson);
  if (all.includes(name)) return `${lesson} has no hints for ${name} yet. Functions with hints: ${hinted.join(", ")}`;
  const nearest = nearestName(name, [...hinted, ...all.filter((n) => !hinted.includes(n))]);
  const hint = nearest !== undefined && hinted.includes(nearest) ? nearest : undefined;
  return (
    `${lesson} has no function named "${name}".${nearest ? ` Did you mean ${nearest}?` : ""} Its functions: ${(all.length > 0 ? all : hinted).join(", ")}` +
    (hint ? `\n  npm run hint ${lesson} ${hint}` : "")
  );
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: [] });
  if (args.positional.length > 2) throw new UsageError(`too many arguments: ${args.positional.join(" ")}`);
  const lesson = anyLesson(args.positional[0], "hint");
  const hints = await loadHints(lesson.id);
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
  console.log(chalk.bold(`${lesson.id} · ${name} — hint ${showing} of ${TIERS.length}`));
  TIERS.slice(0, showing).forEach((tier, i) => {
    const latest = i === showing - 1 && showing > seen;
    console.log("");
    console.log(`  ${i + 1}. ${tier.label}${latest ? chalk.cyan("  (new)") : ""}`);
    const body = wrap(fnHints[tier.key], width, "     ");
    console.log(latest ? body : chalk.dim(body));
  });
  console.log("");
  if (showing < TIERS.length) {
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

await runCommand(USAGE, main);
