/**
 * Course modules that hand out a lesson's answer, found from their own declarations, and the
 * sentence that refuses one to learner code while that lesson is graded.
 *
 * The declaration. A module of the course (lib/, grader/, tools/, labs/) that computes one of a
 * lesson's graded functions, the same math whatever its form (a fast path, typed arrays, another
 * signature), says so in its header doc comment (the first `/** … *\/` of the file) with one line
 * per lesson, the line starting with the tag after the comment's `*`:
 *
 *     * @answers lesson-4 bpeEncode bpeDecode
 *
 * Rules: the lesson is an id of lib/catalog.ts ("lesson-4", not zero-padded; "lesson-04" and "4"
 * are read as lesson-4); the names, separated by spaces or commas, are graded functions of that
 * lesson (exported by solutions/lesson-N/, or in a student edition by its stubs); one module may
 * carry several lines (one per lesson; two lines of one lesson are merged). Tags elsewhere in a
 * file are not read. test/answer-modules.test.ts checks every tag against the catalog.
 *
 * Answer regions. Inside a function body, a tagged module may mark the code that is the answer:
 *
 *     // BEGIN ANSWER lesson-11
 *     …the answer…
 *     // EDITION: return REFERENCE_PIECES.attention(x, weights, opts);
 *     // END ANSWER
 *
 * A student edition built without that lesson's solution (tools/release/) replaces the region by
 * its `// EDITION: ` lines with the prefix removed (what the runtime does there instead, typically
 * the lesson function through lib/resolver.ts), or, without any, by a throw of an error named
 * LessonNotFinishedError saying "finish lesson N first". In the full course the region runs as it
 * is. A tagged module without regions ships readable in such an edition, and the release says so.
 *
 * No TensorFlow.js here, and nothing from tools/ or labs/: the bundler (bundle.ts) calls this in
 * the grading parent, before any learner code runs.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { ROOT } from "./paths.js";

/** One `@answers` line: a lesson and the graded functions of it the module computes. */
export interface AnswerTag {
  /** "lesson-4" */
  lesson: string;
  /** ["bpeEncode", "bpeDecode"], in the order written. */
  functions: string[];
}

/** The folders (under a root) whose modules are scanned for tags. */
export const ANSWER_SCAN_DIRS: readonly string[] = ["lib", "grader", "tools", "labs"];

/** Folders never scanned: wrong answers on purpose (the bundler refuses them anyway), generated data, copies. */
const SKIP = new Set(["node_modules", "mutants", "expected", "fixtures", "out"]);

const TAG_LINE = /^\s*\*\s*@answers\s+(\S+)(.*)$/;

/** "lesson-4" for "lesson-4", "lesson-04" or "4"; an id the catalog does not know stays as written. */
function lessonIdOf(name: string): string {
  return findLesson(name)?.id ?? name;
}

/**
 * The `@answers` tags of one module's text (see the module comment), merged by lesson in the order
 * first seen. [] for a module without a header doc comment or without tags.
 */
export function parseAnswerTags(text: string): AnswerTag[] {
  const header = /^(?:#![^\n]*\n)?\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (!header) return [];
  const byLesson = new Map<string, string[]>();
  for (const line of header[1].split("\n")) {
    const m = TAG_LINE.exec(line);
    if (!m) continue;
    const lesson = lessonIdOf(m[1]);
    const names = m[2].split(/[\s,]+/).filter((n) => n !== "");
    const list = byLesson.get(lesson) ?? [];
    for (const n of names) if (!list.includes(n)) list.push(n);
    byLesson.set(lesson, list);
  }
  return [...byLesson].map(([lesson, functions]) => ({ lesson, functions }));
}

function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Every tagged module under `root`'s ANSWER_SCAN_DIRS: absolute real path → its tags. Reads the
 * .ts files (not .d.ts), skipping dot-folders and SKIP. Not cached: `answerModules` is.
 */
export function scanAnswerModules(root: string = ROOT): Map<string, AnswerTag[]> {
  const found = new Map<string, AnswerTag[]>();
  const visit = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(".") || SKIP.has(name)) continue;
      const full = join(dir, name);
      let isDir: boolean;
      try {
        isDir = statSync(full).isDirectory();
      } catch {
        continue;
      }
      if (isDir) visit(full);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) {
        const tags = parseAnswerTags(readFileSync(full, "utf8"));
        if (tags.length > 0) found.set(realPath(full), tags);
      }
    }
  };
  for (const d of ANSWER_SCAN_DIRS) visit(join(root, d));
  return found;
}

let cached: Map<string, AnswerTag[]> | undefined;

/**
 * The course's answer modules: absolute real path → the lessons and graded functions it computes
 * (`[{ lesson: "lesson-4", functions: ["bpeEncode", "bpeDecode"] }]` for lib/tokenizer.ts). Scanned
 * once per process from the repository the grader runs in; the map is shared, do not change it.
 */
export function answerModules(): Map<string, Array<{ lesson: string; functions: string[] }>> {
  return (cached ??= scanAnswerModules(ROOT));
}

/**
 * Why learner code grading `lesson` may not import the module at `absPath` (any spelling of the
 * path: it is resolved through symlinks), as one sentence for the learner that starts with
 * "imports " (the bundler prefixes the learner's file): "imports lib/tokenizer.ts, which computes
 * lesson-4's bpeEncode, bpeDecode: while lesson-4 is graded your code may not use it — write the
 * function yourself". Undefined when the module computes none of that lesson's graded functions
 * (another lesson's answer module is allowed: lesson 5 may use lib/tokenizer.ts).
 */
export function answerModuleRefusal(lesson: string, absPath: string): string | undefined {
  const id = lessonIdOf(lesson);
  const tags = answerModules().get(realPath(absPath));
  const tag = tags?.find((t) => t.lesson === id);
  if (!tag) return undefined;
  const rel = relative(realPath(ROOT), realPath(absPath)).split("\\").join("/");
  const what = tag.functions.length > 0 ? tag.functions.join(", ") : "graded functions";
  const one = tag.functions.length === 1;
  return `imports ${rel}, which computes ${id}'s ${what}: while ${id} is graded your code may not use it — write the function${one ? "" : "s"} yourself`;
}
