/**
 * npm run reset lesson-NN [function] [-- --yes]
 *
 * Puts back the stub of a lesson's exercise files, or only the body of one function, regenerated
 * from solutions/ (lib/stubs.ts). It asks first (--yes skips the question) and always
 * saves the learner's file under .backups/<time>/ before writing: no work is ever lost. The backup
 * is complete (written under a temporary name, then renamed) before the learner's file is replaced,
 * itself through a temporary and a rename; temporaries a killed run left are removed by the next.
 * Only the course's own temporary names are removed (`.<file>.course-tmp-<pid>-<hex>.tmp`, see
 * tools/workspace.ts), and only when their process is gone or they are older than any write takes:
 * a learner's own file in the lesson folder (`scratch.20240101.tmp`, any name) is never deleted,
 * whether or not there is anything to reset.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { paths } from "../../grader/engine/paths.js";
import { say, zh } from "../../grader/i18n.js";
import { generateStub } from "../../lib/stubs.js";
import { solutionLessons } from "../stubs/sync.js";
import { BACKUPS_DIR, backupFile, cleanStaleTemporaries, writeFileAtomic } from "../workspace.js";
import { anyLesson, confirm, parseArgs, runCommand, UsageError } from "./cli-support.js";
import { functionsIn, replaceBody, syntaxError } from "./functions.js";
import { lessonExercisesDir, shown } from "./locations.js";

const USAGE = `usage: npm run reset lesson-NN [function] [-- --yes]

  npm run reset lesson-23              every exercise file of lesson-23 back to its stub
  npm run reset lesson-23 maskedGae    only the body of maskedGae back to the stub
  npm run reset lesson-23 -- --yes     without asking

Your current file is always saved under .backups/ first.`;

/** USAGE in Chinese (i18n.ts: COURSE_LANG=zh). */
const USAGE_ZH = `用法：npm run reset lesson-NN [函数名] [-- --yes]

  npm run reset lesson-23              把 lesson-23 的每个练习文件恢复成存根
  npm run reset lesson-23 maskedGae    只把 maskedGae 的函数体恢复成存根
  npm run reset lesson-23 -- --yes     不再询问，直接恢复

你当前的文件总会先保存到 .backups/ 下。`;

interface LessonFile {
  /** "ppo.ts" */
  name: string;
  exercisePath: string;
  stub: string;
  /** The learner's text; undefined when the file is missing. */
  current?: string;
}

/**
 * The lesson's files with their stubs: generated from solutions/, or (in a student edition, which
 * has no solutions) the pristine stubs the release step kept in stubs/.
 */
function lessonFiles(lesson: string): LessonFile[] {
  const fromSolutions = existsSync(join(paths.solutions, lesson));
  const dir = fromSolutions ? join(paths.solutions, lesson) : join(paths.pristineStubs, lesson);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((name) => {
      const exercisePath = join(lessonExercisesDir(lesson), name);
      const source = readFileSync(join(dir, name), "utf8");
      return {
        name,
        exercisePath,
        stub: fromSolutions ? generateStub(source, lesson, name) : source,
        current: existsSync(exercisePath) ? readFileSync(exercisePath, "utf8") : undefined,
      };
    });
}

/** A planned write: the new text of a file, and what to tell the learner. */
interface Change {
  file: LessonFile;
  text: string;
  what: string;
}

function wholeLessonChanges(files: readonly LessonFile[]): Change[] {
  return files.filter((f) => f.current !== f.stub).map((f) => ({ file: f, text: f.stub, what: say(`${shown(f.exercisePath)} back to its stub`, `${shown(f.exercisePath)} 恢复成存根`) }));
}

/** The learner's file with `name`'s body replaced by the stub's; undefined when it already is the stub's. */
function functionChange(file: LessonFile, name: string, lesson: string): Change | undefined {
  const path = shown(file.exercisePath);
  if (file.current === undefined) throw new Error(say(`${path} is missing: \`npm run reset ${lesson}\` restores the whole file.`, `${path} 不见了：\`npm run reset ${lesson}\` 会恢复整个文件。`));
  const broken = syntaxError(file.current, file.name);
  if (broken) {
    throw new Error(
      say(
        `${path} does not parse (${broken}), so its functions cannot be found safely: fix that, or reset the whole file with \`npm run reset ${lesson}\`.`,
        `${path} 无法解析（${broken}），所以没法安全地找到其中的函数：先修好它，或者用 \`npm run reset ${lesson}\` 恢复整个文件。`,
      ),
    );
  }
  const stubFn = functionsIn(file.stub, file.name).find((f) => f.name === name)!;
  const mine = functionsIn(file.current, file.name).find((f) => f.name === name);
  if (!mine) throw new Error(say(`${path} has no function ${name} any more: \`npm run reset ${lesson}\` restores the whole file.`, `${path} 里已经没有函数 ${name} 了：\`npm run reset ${lesson}\` 会恢复整个文件。`));
  const stubBody = file.stub.slice(stubFn.bodyStart, stubFn.bodyEnd);
  if (file.current.slice(mine.bodyStart, mine.bodyEnd) === stubBody) return undefined;
  return { file, text: withErrorImport(replaceBody(file.current, mine, stubBody), file.stub), what: say(`${name} in ${path} back to its stub`, `${path} 中的 ${name} 恢复成存根`) };
}

const ERROR_IMPORT = /^import\b.*\bNotImplementedError\b.*;\s*$/m;

/** Adds the stub's NotImplementedError import after the last import when the learner removed it. */
function withErrorImport(text: string, stub: string): string {
  const importLine = ERROR_IMPORT.exec(stub)?.[0];
  if (!importLine || ERROR_IMPORT.test(text)) return text;
  const lines = text.split("\n");
  const lastImport = lines.reduce((last, l, i) => (/^import\b.*;\s*$/.test(l) ? i : last), -1);
  lines.splice(lastImport + 1, 0, importLine);
  return lines.join("\n");
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: ["--yes", "-y"], npmFlags: false });
  if (args.positional.length > 2) throw new UsageError(say(`too many arguments: ${args.positional.join(" ")}`, `参数太多：${args.positional.join(" ")}`));
  const lesson = anyLesson(args.positional[0], "reset");
  const withExercises = [...new Set([...solutionLessons(), ...(existsSync(paths.pristineStubs) ? readdirSync(paths.pristineStubs) : [])])];
  if (!withExercises.includes(lesson.id)) throw new UsageError(say(`${lesson.id} has no exercises to reset. Lessons with exercises: ${withExercises.join(", ")}`, `${lesson.id} 没有可以重置的练习。有练习的课程：${withExercises.join(", ")}`));
  // A reset killed half-way leaves temporaries (the learner's file and every backup stay whole): tidy
  // them. Only the course's own temporary names are touched, never a learner's file.
  const leftovers = [...cleanStaleTemporaries(lessonExercisesDir(lesson.id)), ...cleanStaleTemporaries(BACKUPS_DIR, { recursive: true })];
  if (leftovers.length > 0) console.log(say(`Removed ${leftovers.length} temporary file(s) an interrupted command left: ${leftovers.map(shown).join(", ")}`, `已删除被中断的命令留下的 ${leftovers.length} 个临时文件：${leftovers.map(shown).join(", ")}`));
  const files = lessonFiles(lesson.id);
  const name = args.positional[1];
  let changes: Change[];
  if (name === undefined) changes = wholeLessonChanges(files);
  else {
    const file = files.find((f) => functionsIn(f.stub, f.name).some((fn) => fn.exported && fn.name === name));
    if (!file) {
      const known = files.flatMap((f) => functionsIn(f.stub, f.name).filter((fn) => fn.exported).map((fn) => fn.name));
      throw new UsageError(say(`${lesson.id} has no exercise named "${name}". Its functions: ${known.join(", ")}`, `${lesson.id} 没有名为 "${name}" 的练习。它的函数：${known.join(", ")}`));
    }
    const change = functionChange(file, name, lesson.id);
    changes = change ? [change] : [];
  }
  if (changes.length === 0) {
    console.log(say(`Nothing to reset: ${name ?? lesson.id} is already the stub.`, `无需重置：${name ?? lesson.id} 已经是存根了。`));
    return 0;
  }
  const saved = changes.filter((c) => c.file.current !== undefined);
  console.log(say(`This puts ${changes.map((c) => c.what).join(", ")}.`, `这会把 ${changes.map((c) => c.what).join("，")}。`));
  if (saved.length > 0) console.log(say("Your current version is saved under .backups/ first.", "你当前的版本会先保存到 .backups/ 下。"));
  if (!args.flags.has("--yes") && !args.flags.has("-y") && !(await confirm(say("Reset?", "要重置吗？")))) {
    console.log(say("Nothing changed.", "没有做任何改动。"));
    return 0;
  }
  for (const c of changes) {
    const backup = c.file.current !== undefined ? backupFile(c.file.exercisePath) : undefined;
    writeFileAtomic(c.file.exercisePath, c.text);
    if (zh()) console.log(`已将 ${c.what}${backup ? `；你的版本保存在 ${shown(backup)}` : ""}`);
    else console.log(`reset ${c.what}${backup ? `; your version is in ${shown(backup)}` : ""}`);
  }
  return 0;
}

await runCommand(say(USAGE, USAGE_ZH), main);
