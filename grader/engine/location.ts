/**
 * Finds where in the learner's own code an exception was thrown, so a report can say
 * "exercises/lesson-23/ppo.ts:57:11 in tf.add" instead of printing a stack trace from inside the
 * grader or TensorFlow.js. Grading processes raise Error.stackTraceLimit, so the learner's frame
 * is still on the stack when the throw came from deep inside a TensorFlow.js kernel.
 */
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "./paths.js";

/** Folders whose code is "the implementation under test": a learner's, a reference or a mutant. */
const IMPLEMENTATION_DIRS = /^(exercises|solutions|grader\/mutants|\.selfcheck-[^/]+|test\/bad-implementations)\//;

const FRAME = /\(?((?:file:\/\/)?\/[^():]+\.[cm]?[jt]s):(\d+):(\d+)\)?\s*$/;

/** The frames of a stack, innermost first: the text of each line and, when it names one, its file. */
function frames(stack: string): Array<{ line: string; file?: string; at?: string }> {
  return stack
    .split("\n")
    .slice(1)
    .map((raw) => {
      const line = raw.trim();
      const m = FRAME.exec(line);
      if (!m) return { line };
      const file = m[1].startsWith("file://") ? fileURLToPath(m[1]) : m[1];
      return { line, file, at: `${m[2]}:${m[3]}` };
    });
}

function isImplementation(file: string, implDir?: string): boolean {
  const inImplDir = implDir !== undefined && !relative(implDir, file).startsWith("..");
  return IMPLEMENTATION_DIRS.test(relative(ROOT, file)) || inImplDir;
}

/**
 * The innermost stack frame inside an implementation folder (the course's own, or `implDir`, the
 * folder being graded, e.g. a COURSE_EXERCISES_DIR workspace); undefined when there is none.
 */
export function learnerLocation(stack: string, implDir?: string): string | undefined {
  const f = frames(stack).find((x) => x.file !== undefined && isImplementation(x.file, implDir));
  return f ? `${relative(ROOT, f.file!)}:${f.at}` : undefined;
}

/**
 * The TensorFlow.js op the learner's code called when the error was raised ("tf.add"): the
 * outermost op frame below the learner's frame. undefined when the error did not come from an op.
 */
export function tfjsOpName(stack: string, implDir?: string): string | undefined {
  let op: string | undefined;
  for (const f of frames(stack)) {
    if (f.file !== undefined && isImplementation(f.file, implDir)) break;
    const m = /^at (?:Object\.)?([A-Za-z0-9]+?)_+op\b/.exec(f.line);
    if (m) op = `tf.${m[1]}`;
  }
  return op;
}
