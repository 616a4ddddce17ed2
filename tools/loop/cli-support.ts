/**
 * What every command shares: `--help` (usage on stdout, exit 0, nothing run), usage errors that exit
 * 2 with a one-line message and the usage (never a stack trace), argument parsing by Node's
 * util.parseArgs, npm's way of passing flags, a lesson argument, and a y/N prompt.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from "node:util";
import { CATALOG, findLesson, type LessonInfo } from "../../lib/catalog.js";
import { notReleased, notReleasedMessage } from "../../lib/course/edition.js";
import { connectGrading } from "../../lib/resolver.js";
import { preloadLessonFunctions } from "../../lib/preloaded.js";
import { gradedLessons } from "../../grader/engine/paths.js";
import { courseLangWarning } from "../../lib/lang.js";
import { say, zh } from "../../grader/i18n.js";

/** Bad input from the command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * `--help` or `-h`: runCommand prints the usage on stdout and exits 0, and nothing else runs. (A
 * UsageError with an empty message means the same: the older way of asking for the usage.)
 */
export class HelpRequested extends UsageError {
  override name = "HelpRequested";
  constructor() {
    super("");
  }
}

export interface RunCommandOptions {
  /**
   * The command runs lesson functions in this process, a tokenizer's encode among them: resolve the
   * ones synchronous code asks for first (lib/preloaded.ts; in a student edition without lesson 4,
   * the tokenizer runs the learner's bpeEncode and bpeDecode).
   */
  lessonFunctions?: boolean;
}

/**
 * Runs a command's main function and sets the exit code: its result, 0 after a HelpRequested (the
 * usage on stdout), 2 after a UsageError (its message and the usage on stderr), 1 after any other
 * error. Errors print their message only; COURSE_DEBUG=1 adds the stack.
 */
export async function runCommand(usage: string, main: () => Promise<number> | number, opts: RunCommandOptions = {}): Promise<void> {
  // A command's runs take the learner's functions that pass, as the grader says (lib/resolver.ts).
  connectGrading(new URL("./resolver-grading.ts", import.meta.url).href);
  // COURSE_LANG=fr and the like: English, and one line saying so (lib/lang.ts courseLang).
  const langWarning = courseLangWarning();
  if (langWarning) console.error(langWarning);
  // Output piped into `head` closes early: stop quietly instead of printing a write error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
  try {
    if (opts.lessonFunctions) await preloadLessonFunctions();
    process.exitCode = await main();
  } catch (err) {
    if (err instanceof HelpRequested || (err instanceof UsageError && err.message === "")) {
      console.log(usage);
      process.exitCode = 0;
      return;
    }
    if (err instanceof UsageError) {
      console.error(`${err.message}\n`);
      console.error(usage);
      process.exitCode = 2;
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    console.error(say(`error: ${message}`, `错误：${message}`));
    if (process.env.COURSE_DEBUG === "1" && err instanceof Error) console.error(err.stack);
    process.exitCode = 1;
  }
}

/** npm turns `npm run grade lesson-23 --json` (without `--`) into npm_config_json=true: honour it. */
export function npmFlag(name: string): boolean {
  const v = process.env[`npm_config_${name}`];
  return v === "true" || v === "";
}

let npmConfigNames: Set<string> | null | undefined;

/**
 * The names of npm's own settings (`json`, `force`, `loglevel`, …), read from the npm that runs
 * this script (npm_execpath); undefined outside npm, or where its settings cannot be read.
 */
function npmOwnSettings(): Set<string> | undefined {
  if (npmConfigNames === undefined) {
    npmConfigNames = null;
    const cli = process.env.npm_execpath;
    if (cli) {
      const require = createRequire(import.meta.url);
      for (const module of ["node_modules/@npmcli/config/lib/definitions/index.js", "lib/utils/config/definitions.js"]) {
        try {
          const { definitions } = require(join(dirname(cli), "..", module)) as { definitions?: Record<string, unknown> };
          if (definitions && typeof definitions === "object") {
            npmConfigNames = new Set(Object.keys(definitions));
            break;
          }
        } catch {
          // another npm layout (or pnpm, yarn): no list, so no guessing
        }
      }
    }
  }
  return npmConfigNames ?? undefined;
}

/**
 * A flag typed without `--` that neither npm nor the command knows (`npm run doctor --bogus` gives
 * npm_config_bogus=true and an empty argv): a UsageError naming it. Silent outside npm.
 */
function rejectUnknownNpmFlags(known: readonly string[]): void {
  const npmOwn = npmOwnSettings();
  if (!npmOwn) return;
  const mine = new Set(known.map((k) => k.replace(/^-+/, "").replace(/-/g, "_")));
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("npm_config_") || value !== "true") continue;
    const name = key.slice("npm_config_".length);
    if (mine.has(name) || npmOwn.has(name.replace(/_/g, "-"))) continue;
    const flag = `--${name.replace(/_/g, "-")}`;
    const command = process.env.npm_lifecycle_event ?? "<command>";
    throw new UsageError(
      say(
        `unknown option ${flag} (typed without \`--\`, npm took it for itself; options for the course go after \`--\`: npm run ${command} -- ${flag})`,
        `未知选项 ${flag}（没有写 \`--\`，npm 把它当成了自己的选项；课程的选项要写在 \`--\` 之后：npm run ${command} -- ${flag}）`,
      ),
    );
  }
}

/** The UsageError for an option whose value npm took (`npm run train pretrain --steps 10`). */
function npmTookValue(option: string, argv: readonly string[]): UsageError {
  const value = argv.find((a) => /^\d/.test(a)) ?? "…";
  const rest = argv.filter((a) => a !== value).join(" ");
  const write = `npm run ${process.env.npm_lifecycle_event ?? "grade"} -- ${rest ? `${rest} ` : ""}${option} ${value}`;
  return new UsageError(
    say(
      `npm took ${option} for itself (without \`--\`, npm reads options meant for the course), so its value ${value} arrived as an argument. Write: ${write}`,
      `npm 把 ${option} 当成了自己的选项（没有 \`--\` 时，npm 会读走本该给课程的选项），所以它的值 ${value} 成了一个参数。请这样写：${write}`,
    ),
  );
}

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** True when `--help` or `-h` comes before any `--` that ends the options. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/**
 * `--name -3` → `--name=-3` for an option that takes a value, so that a negative or dash-led value
 * reaches the command's own check ("--steps must be ≥ 1") instead of util.parseArgs' "ambiguous".
 * A value starting with `--` stays apart: that is a missing value.
 */
function joinDashValues(argv: readonly string[], options: OptionsConfig): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (a.startsWith("--") && !a.includes("=") && options[a.slice(2)]?.type === "string" && next !== undefined && /^-[^-]/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** util.parseArgs' error as one line that names the option: "unknown option --bogus". */
function parseErrorMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const message = String(e?.message ?? err);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? "";
  const option = quoted.split(/[ ,]+/).filter((p) => p.startsWith("-")).pop() ?? quoted;
  if (zh()) {
    switch (e?.code) {
      case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
        return `未知选项 ${option}`;
      case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
        return `多余的参数 ${quoted}`;
      case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
        if (/does not take an argument/.test(message)) return `${option} 不接受值`;
        return `${option} 需要一个值`;
    }
  }
  switch (e?.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${quoted}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (/does not take an argument/.test(message)) return `${option} takes no value`;
      return `${option} needs a value`;
    default:
      return message.split("\n")[0];
  }
}

/** What parseOptions returns: util.parseArgs' values and positionals. */
export type ParsedOptions<O extends OptionsConfig> = ReturnType<typeof parseNodeArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

export interface OptionsSpec {
  /** Whether the command takes positional arguments (default false: any is a UsageError). */
  positionals?: boolean;
  /** Flags npm took for itself (no `--`) count too; off where a flag must be typed on purpose. */
  npmFlags?: boolean;
}

/**
 * The command line by Node's util.parseArgs, with the course's conventions: `--help`/`-h` anywhere
 * before `--` is a HelpRequested (checked first, so asking for help never runs anything); unknown
 * options, missing values and stray arguments are UsageErrors with a one-line message; options npm
 * took for itself (typed without `--`) are merged in, except npm's own settings, and an option npm
 * took with its value, or one nobody knows, is a UsageError saying what to type.
 */
export function parseOptions<const O extends OptionsConfig>(argv: readonly string[], options: O, spec: OptionsSpec = {}): ParsedOptions<O> {
  if (asksForHelp(argv)) throw new HelpRequested();
  let parsed: ParsedOptions<O>;
  try {
    parsed = parseNodeArgs({ args: joinDashValues(argv, options), options, allowPositionals: spec.positionals ?? false, strict: true }) as ParsedOptions<O>;
  } catch (err) {
    throw new UsageError(parseErrorMessage(err));
  }
  if (spec.npmFlags !== false) {
    const npmOwn = npmOwnSettings();
    const values = parsed.values as Record<string, unknown>;
    for (const [name, option] of Object.entries(options)) {
      if (values[name] !== undefined || npmOwn?.has(name) || !npmFlag(name.replace(/-/g, "_"))) continue;
      if (option.type === "boolean") values[name] = option.multiple ? [true] : true;
      else throw npmTookValue(`--${name}`, argv);
    }
  }
  rejectUnknownNpmFlags(Object.keys(options));
  return parsed;
}

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  /** Values of the options that take one (`--port 8080`). */
  values: Map<string, string>;
}

export interface ArgSpec {
  flags: readonly string[];
  /** Options that take a value. */
  values?: readonly string[];
  /** Flags npm took for itself (no `--`) count too; off where a flag must be typed on purpose. */
  npmFlags?: boolean;
}

/** An ArgSpec entry (`--verbose`, `-v`) as a util.parseArgs option: its name and settings. */
function nodeOption(entry: string, type: "boolean" | "string"): [string, OptionsConfig[string]] {
  if (/^-[^-]$/.test(entry)) return [entry.slice(1), { type, short: entry.slice(1) }];
  return [entry.replace(/^--/, ""), { type }];
}

/**
 * Splits argv into positional arguments, known flags and options with a value (by util.parseArgs).
 * Flags given to npm without `--` arrive as npm_config_<name> and are merged in. `--help`/`-h` is a
 * HelpRequested; anything unknown is a UsageError.
 */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: new Set(), values: new Map() };
  if (spec.npmFlags !== false) {
    for (const f of spec.flags) if (f.startsWith("--") && npmFlag(f.slice(2).replace(/-/g, "_"))) out.flags.add(f);
    // `npm run grade lesson-23 --verbose` sets npm's own log level instead of passing the flag.
    if (spec.flags.includes("--verbose") && process.env.npm_config_loglevel === "verbose") out.flags.add("--verbose");
    // An option with a value cannot be recovered: npm keeps the name and passes the value on as an argument.
    for (const v of spec.values ?? []) {
      if (v.startsWith("--") && npmFlag(v.slice(2).replace(/-/g, "_")) && !argv.includes(v)) throw npmTookValue(v, argv);
    }
  }
  if (asksForHelp(argv)) throw new HelpRequested();
  const options: OptionsConfig = {};
  const entryOf = new Map<string, string>();
  for (const [entries, type] of [[spec.flags, "boolean"], [spec.values ?? [], "string"]] as const) {
    for (const entry of entries) {
      const [name, option] = nodeOption(entry, type);
      options[name] = option;
      entryOf.set(name, entry);
    }
  }
  let tokens;
  try {
    ({ tokens } = parseNodeArgs({ args: joinDashValues(argv, options), options, allowPositionals: true, strict: true, tokens: true }));
  } catch (err) {
    throw new UsageError(parseErrorMessage(err));
  }
  for (const t of tokens) {
    if (t.kind === "positional") out.positional.push(t.value);
    else if (t.kind === "option") {
      const entry = spec.flags.includes(t.rawName) || spec.values?.includes(t.rawName) ? t.rawName : entryOf.get(t.name)!;
      if (t.value === undefined) out.flags.add(entry);
      else if (t.value.startsWith("--")) throw new UsageError(say(`${entry} needs a value`, `${entry} 需要一个值`));
      else out.values.set(entry, t.value);
    }
  }
  rejectUnknownNpmFlags([...spec.flags, ...(spec.values ?? [])]);
  return out;
}

/** The graded lesson named by `name`; a UsageError that lists the graded lessons otherwise. */
export function gradedLesson(name: string | undefined, command: string): LessonInfo {
  const graded = gradedLessons();
  if (name === undefined) throw new UsageError(say(`which lesson? e.g. \`npm run ${command} ${graded[0] ?? "lesson-23"}\``, `哪一节课？例如 \`npm run ${command} ${graded[0] ?? "lesson-23"}\``));
  const lesson = findLesson(name);
  if (!lesson) throw new UsageError(say(`unknown lesson "${name}". Lessons with graded exercises: ${graded.join(", ")}`, `未知的课程 "${name}"。有评分练习的课程：${graded.join(", ")}`));
  if (!graded.includes(lesson.id)) {
    if (notReleased(lesson.id)) throw new UsageError(notReleasedMessage(lesson.id));
    throw new UsageError(
      say(`${lesson.id} (${lesson.title}) has no graded exercises yet. Lessons with graded exercises: ${graded.join(", ")}`, `${lesson.id}（${lesson.title}）还没有评分练习。有评分练习的课程：${graded.join(", ")}`),
    );
  }
  return lesson;
}

/** The lesson named by `name`, graded or not; a UsageError listing the range otherwise. */
export function anyLesson(name: string | undefined, command: string): LessonInfo {
  if (name === undefined) throw new UsageError(say(`which lesson? e.g. \`npm run ${command} lesson-23\``, `哪一节课？例如 \`npm run ${command} lesson-23\``));
  const lesson = findLesson(name);
  if (!lesson) throw new UsageError(say(`unknown lesson "${name}": the course has lesson-1 to lesson-${CATALOG.length}`, `未知的课程 "${name}"：本课程包含 lesson-1 到 lesson-${CATALOG.length}`));
  if (notReleased(lesson.id)) throw new UsageError(notReleasedMessage(lesson.id));
  return lesson;
}

/**
 * Asks a yes/no question on the terminal; only "y" or "yes" count as yes. A closed or empty stdin
 * (a script, CI) answers no.
 */
export function confirm(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    let answered = false;
    rl.on("close", () => {
      if (!answered) {
        process.stdout.write("\n");
        resolve(false);
      }
    });
    rl.question(`${question} [y/N] `, (answer) => {
      answered = true;
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}
