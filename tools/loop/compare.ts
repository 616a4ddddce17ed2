/**
 * `npm run grade lesson-NN -- --compare`: once a lesson passes, the learner's function bodies
 * beside the reference's, side by side when the terminal is wide enough, else one after the other.
 */
import chalk from "chalk";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { paths } from "../../grader/engine/paths.js";
import { padDisplay, zh } from "../../grader/i18n.js";
import { bodyLines, functionsIn, type FunctionInfo } from "./functions.js";
import { lessonExercisesDir, shown } from "./locations.js";

export interface ComparedFunction {
  name: string;
  /** The learner's body, or undefined when no file of theirs defines the function. */
  yours?: string[];
  yoursFile?: string;
  /** The reference body, followed by the private helpers it calls. */
  reference: string[];
  referenceFile: string;
}

const MARKER = /^\s*\/\/ (BEGIN|END) SOLUTION\s*$/;

interface SourceFile {
  path: string;
  text: string;
  functions: FunctionInfo[];
}

function sourcesIn(dir: string): SourceFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      return { path: join(dir, f), text, functions: functionsIn(text, f) };
    });
}

function find(files: readonly SourceFile[], name: string): { file: SourceFile; fn: FunctionInfo } | undefined {
  for (const file of files) {
    const fn = file.functions.find((f) => f.name === name);
    if (fn) return { file, fn };
  }
  return undefined;
}

/** Body lines without the solution markers. */
function referenceBody(file: SourceFile, fn: FunctionInfo): string[] {
  return bodyLines(file.text, fn).filter((l) => !MARKER.test(l));
}

/** The private (non-exported) functions of `file` that `body` calls, as text without markers. */
function helpersCalled(file: SourceFile, body: readonly string[]): string[] {
  const joined = body.join("\n");
  return file.functions
    .filter((f) => !f.exported && new RegExp(`\\b${f.name}\\(`).test(joined))
    .flatMap((f) => ["", ...file.text.slice(f.start, f.end).split("\n").filter((l) => !MARKER.test(l))]);
}

/** The learner's and the reference's bodies of `names`, for lesson `lesson`. */
export function compareFunctions(lesson: string, names: readonly string[]): ComparedFunction[] {
  const reference = sourcesIn(join(paths.solutions, lesson));
  const learner = sourcesIn(lessonExercisesDir(lesson));
  return names.map((name) => {
    const ref = find(reference, name);
    if (!ref) throw new Error(`solutions/${lesson} defines no function ${name}`);
    const refBody = referenceBody(ref.file, ref.fn);
    const mine = find(learner, name);
    return {
      name,
      yours: mine ? bodyLines(mine.file.text, mine.fn) : undefined,
      yoursFile: mine ? shown(mine.file.path) : undefined,
      reference: [...refBody, ...helpersCalled(ref.file, refBody)],
      referenceFile: shown(ref.file.path),
    };
  });
}

function widest(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((l) => l.length));
}

/**
 * The comparison as text for a terminal `width` columns wide: side by side when both bodies fit,
 * else yours, then the reference.
 */
export function formatComparison(fns: readonly ComparedFunction[], width: number): string {
  const out: string[] = [];
  for (const f of fns) {
    out.push("", chalk.bold(`── ${f.name} ${"─".repeat(Math.max(3, Math.min(width, 100) - f.name.length - 4))}`));
    const chinese = zh();
    const yours = f.yours ?? [chinese ? `（你的文件里没有函数 ${f.name}）` : `(no function ${f.name} in your files)`];
    const left = Math.max(widest(yours), 4 + (f.yoursFile?.length ?? 0));
    const right = Math.max(widest(f.reference), 10 + f.referenceFile.length);
    if (left + 3 + right <= width) {
      if (chinese) out.push(chalk.dim(`${padDisplay(`你的代码：${f.yoursFile ?? "-"}`, left)} │ 参考答案：${f.referenceFile}`));
      else out.push(chalk.dim(`${`yours: ${f.yoursFile ?? "-"}`.padEnd(left)} │ reference: ${f.referenceFile}`));
      for (let i = 0; i < Math.max(yours.length, f.reference.length); i++) {
        out.push(`${(yours[i] ?? "").padEnd(left)} ${chalk.dim("│")} ${f.reference[i] ?? ""}`);
      }
    } else {
      out.push(chalk.dim(chinese ? `你的代码（${f.yoursFile ?? "-"}）：` : `yours (${f.yoursFile ?? "-"}):`), ...yours.map((l) => (l ? `  ${l}` : "")));
      out.push(chalk.dim(chinese ? `参考答案（${f.referenceFile}）：` : `reference (${f.referenceFile}):`), ...f.reference.map((l) => (l ? `  ${l}` : "")));
    }
  }
  return out.join("\n");
}
