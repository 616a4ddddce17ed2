/**
 * What every command of the learner's loop shares: usage errors that exit 2 with a clear message
 * (never a stack trace), npm's way of passing flags, a lesson argument, and a y/N prompt.
 */
import { createInterface } from "node:readline";
import { CATALOG, findLesson, type LessonInfo } from "../../lib/catalog.js";
import { gradedLessons } from "../../grader/engine/paths.js";

/** Bad input from the command line: printed with the usage text, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * Runs a command's main function and sets the exit code: its result, 2 after a UsageError, 1 after
 * any other error. Errors print their message only; COURSE_DEBUG=1 adds the stack.
 */
export async function runCommand(usage: string, main: () => Promise<number> | number): Promise<void> {
  // Output piped into `head` closes early: stop quietly instead of printing a write error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
  try {
    process.exitCode = await main();
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(`${err.message}\n`);
      console.error(usage);
      process.exitCode = 2;
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    console.error(`error: ${message}`);
    if (process.env.COURSE_DEBUG === "1" && err instanceof Error) console.error(err.stack);
    process.exitCode = 1;
  }
}

/** npm turns `npm run grade lesson-23 --json` (without `--`) into npm_config_json=true: honour it. */
export function npmFlag(name: string): boolean {
  const v = process.env[`npm_config_${name}`];
  return v === "true" || v === "";
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

/**
 * Splits argv into positional arguments, known flags and options with a value. Flags given to npm
 * without `--` arrive as npm_config_<name> and are merged in. Anything unknown is a UsageError.
 */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: new Set(), values: new Map() };
  if (spec.npmFlags !== false) {
    for (const f of spec.flags) if (f.startsWith("--") && npmFlag(f.slice(2).replace(/-/g, "_"))) out.flags.add(f);
    // `npm run grade lesson-23 --verbose` sets npm's own log level instead of passing the flag.
    if (spec.flags.includes("--verbose") && process.env.npm_config_loglevel === "verbose") out.flags.add("--verbose");
    // An option with a value cannot be recovered: npm keeps the name and passes the value on as an argument.
    for (const v of spec.values ?? []) {
      if (v.startsWith("--") && npmFlag(v.slice(2).replace(/-/g, "_")) && !argv.includes(v)) {
        const value = argv.find((a) => /^\d/.test(a)) ?? "…";
        const rest = argv.filter((a) => a !== value).join(" ");
        throw new UsageError(`npm took ${v} for itself (without \`--\`, npm reads options meant for the course), so its value ${value} arrived as an argument. Write: npm run ${process.env.npm_lifecycle_event ?? "grade"} -- ${rest ? `${rest} ` : ""}${v} ${value}`);
      }
    }
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") throw new UsageError("");
    if (spec.flags.includes(a)) out.flags.add(a);
    else if (spec.values?.includes(a)) {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`);
      out.values.set(a, v);
    } else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else out.positional.push(a);
  }
  return out;
}

/** The graded lesson named by `name`; a UsageError that lists the graded lessons otherwise. */
export function gradedLesson(name: string | undefined, command: string): LessonInfo {
  const graded = gradedLessons();
  if (name === undefined) throw new UsageError(`which lesson? e.g. \`npm run ${command} ${graded[0] ?? "lesson-23"}\``);
  const lesson = findLesson(name);
  if (!lesson) throw new UsageError(`unknown lesson "${name}". Lessons with graded exercises: ${graded.join(", ")}`);
  if (!graded.includes(lesson.id)) {
    throw new UsageError(`${lesson.id} (${lesson.title}) has no graded exercises yet. Lessons with graded exercises: ${graded.join(", ")}`);
  }
  return lesson;
}

/** The lesson named by `name`, graded or not; a UsageError listing the range otherwise. */
export function anyLesson(name: string | undefined, command: string): LessonInfo {
  if (name === undefined) throw new UsageError(`which lesson? e.g. \`npm run ${command} lesson-23\``);
  const lesson = findLesson(name);
  if (!lesson) throw new UsageError(`unknown lesson "${name}": the course has lesson-1 to lesson-${CATALOG.length}`);
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
