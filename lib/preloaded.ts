/**
 * Lesson functions that synchronous course code calls, resolved before a command runs.
 *
 * lib/tokenizer.ts's encode and decode are lesson 4's `bpeEncode` and `bpeDecode`, written fast. A
 * student edition that does not publish lesson 4 withholds them (tools/release/withhold.ts), and its
 * tokenizer, which every lab, data loader and server builds and calls synchronously, runs the
 * learner's own functions instead. `preloadLessonFunctions` resolves them once per process through
 * lib/resolver.ts (the learner's when they pass grading), before a command's main function
 * (tools/loop/cli-support.ts's runCommand) and in the workers the course forks;
 * `preloadedFunction` then hands them out synchronously, or throws why they cannot be had
 * ("finish lesson 4 first").
 *
 * Where the lesson's reference is present (the full course, or an edition that publishes the
 * lesson) the fast code stays in lib/tokenizer.ts and nothing is resolved. Inside the grading
 * sandbox this module is replaced by a bundled stand-in that exports only `preloadedFunction`
 * (grader/engine/bundle.ts), so that is all course code inside a grading run may import from it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { coursePaths } from "./course/paths.js";
import { LessonNotFinishedError, resolveFunction, type ResolveOptions } from "./resolver.js";

/** The lesson functions synchronous course code may ask for, by lesson (lib/tokenizer.ts's EDITION lines). */
export const PRELOADED_FUNCTIONS: Readonly<Record<string, readonly string[]>> = { "lesson-4": ["bpeEncode", "bpeDecode"] };

type Loaded = { fn: unknown } | { error: Error };

const loaded = new Map<string, Loaded>();
let preloading: Promise<void> | undefined;

const keyOf = (lesson: string, name: string) => `${lesson}/${name}`;

/**
 * The lessons of PRELOADED_FUNCTIONS whose reference is absent here (no solutions/<lesson>/): a
 * student edition that withholds their code from lib/, whose synchronous code then runs the
 * learner's functions. [] in the full course.
 */
export function learnerRunLessons(solutionsDir: string = coursePaths.solutions): string[] {
  return Object.keys(PRELOADED_FUNCTIONS).filter((lesson) => !existsSync(join(solutionsDir, lesson)));
}

/**
 * Resolves every PRELOADED_FUNCTIONS entry of `learnerRunLessons`: the learner's function when it
 * passes grading, else the reason it cannot run (kept, and thrown by `preloadedFunction` when the
 * function is called). Once per process; a second call waits for the first.
 */
export function preloadLessonFunctions(opts: ResolveOptions = {}): Promise<void> {
  preloading ??= (async () => {
    for (const lesson of learnerRunLessons(opts.solutionsDir)) {
      const names = PRELOADED_FUNCTIONS[lesson];
      for (const name of names) {
        try {
          loaded.set(keyOf(lesson, name), { fn: (await resolveFunction(lesson, name, opts)).fn });
        } catch (err) {
          if (!(err instanceof LessonNotFinishedError)) throw err;
          loaded.set(keyOf(lesson, name), { error: err });
        }
      }
    }
  })();
  return preloading;
}

/**
 * `lesson`'s `name` as `preloadLessonFunctions` resolved it. Throws its LessonNotFinishedError
 * ("finish lesson 4 first") when the learner's does not pass, and says what to call when nothing
 * was preloaded in this process (a script of one's own that builds a tokenizer in an edition).
 */
export function preloadedFunction<F>(lesson: string, name: string): F {
  const entry = loaded.get(keyOf(lesson, name));
  if (entry && "fn" in entry) return entry.fn as F;
  if (entry) throw entry.error;
  throw new Error(
    `${lesson}'s ${name} is needed here (this edition runs your own ${name}) but was not loaded in this process: the course's commands load it before they start; a script of your own must first \`await preloadLessonFunctions()\` from lib/preloaded.ts`,
  );
}
