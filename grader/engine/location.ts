/**
 * Finds where in the learner's own code an exception was thrown, so a report can say
 * "exercises/lesson-23/ppo.ts:57:11" instead of printing a stack trace from inside the grader.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./paths.js";

/** Folders whose code is "the implementation under test": a learner's, a reference or a mutant. */
const IMPLEMENTATION_DIRS = /^(exercises|solutions|grader\/mutants|\.selfcheck-[^/]+|test\/bad-implementations)\//;

/**
 * The first stack frame inside an implementation folder (the course's own, or `implDir`, the folder
 * being graded, e.g. a COURSE_EXERCISES_DIR workspace); undefined when there is none.
 */
export function learnerLocation(stack: string, implDir?: string): string | undefined {
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^():]+\.[cm]?[jt]s):(\d+):(\d+)\)?\s*$/.exec(line.trim());
    if (!m) continue;
    const file = m[1].startsWith("file://") ? fileURLToPath(m[1]) : m[1];
    const rel = relative(ROOT, file);
    const inImplDir = implDir !== undefined && !relative(implDir, file).startsWith("..");
    if (!IMPLEMENTATION_DIRS.test(rel) && !inImplDir) continue;
    return `${rel}:${m[2]}:${m[3]}`;
  }
  return undefined;
}
