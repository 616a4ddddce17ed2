/**
 * Generates an exercise stub from a reference solution.
 *
 * Solutions mark the part a learner writes with `// BEGIN SOLUTION` … `// END SOLUTION`:
 * - inside a function (an indented marker) the region becomes
 *   `throw new NotImplementedError("<lesson>", "<function>");`
 * - at the top level (a marker in column 0, e.g. a private helper) the region is removed.
 * The stub imports NotImplementedError from lib/errors.ts when it throws one.
 *
 * A solution may import another lesson's reference (`import { rmsNorm } from "../lesson-9/rmsnorm.js";`).
 * A stub never imports solutions/: that line becomes a type-only import of the learner's own file
 * of that lesson (for the signature) and, after the imports, the function itself through the
 * course's resolver, `await resolveFunction("lesson-9", "rmsNorm", { useReference: true })`: the
 * reference, so that this lesson grades the same whatever the learner's progress on that one (and
 * a later lesson's function, like lesson 12's applyRope in lesson 11, is there before its lesson).
 */
const BEGIN = /^(\s*)\/\/ BEGIN SOLUTION\s*$/;
const END = /^\s*\/\/ END SOLUTION\s*$/;
const EXPORTED_FUNCTION = /^export (?:async )?function (\w+)/;
/** An import of another lesson's solution: `import { a, b } from "../lesson-9/file.js";`. */
const OTHER_LESSON_IMPORT = /^import \{([^}]+)\} from "(?:\.\.\/\.\.\/solutions\/|\.\.\/)(lesson-\d+)\/([\w.-]+)\.js";\s*$/;

/** The note a stub carries under its imports. */
export function stubNote(lesson: string): string[] {
  return [
    "// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper",
    `// functions of your own are welcome), then run \`npm run grade ${lesson}\`. Generated from`,
    "// solutions/ by `npm run stubs`; edit freely.",
  ];
}

export class MarkerError extends Error {
  constructor(file: string, line: number, what: string) {
    super(`${file}:${line}: ${what}`);
    this.name = "MarkerError";
  }
}

/** The stub text for `source` (the text of solutions/<lesson>/<file>). */
export function generateStub(source: string, lesson: string, file: string): string {
  const lines = source.split("\n");
  const out: string[] = [];
  let currentFunction: string | undefined;
  let usesError = false;
  const resolved: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const other = OTHER_LESSON_IMPORT.exec(line);
    if (other) {
      out.push(...resolverImport(other[1], other[2], other[3], resolved));
      continue;
    }
    const fn = EXPORTED_FUNCTION.exec(line);
    if (fn) currentFunction = fn[1];
    if (END.test(line)) throw new MarkerError(file, i + 1, "END SOLUTION without a BEGIN SOLUTION");
    const begin = BEGIN.exec(line);
    if (!begin) {
      out.push(line);
      continue;
    }
    const indent = begin[1];
    let j = i + 1;
    while (j < lines.length && !END.test(lines[j])) {
      if (BEGIN.test(lines[j])) throw new MarkerError(file, j + 1, "nested BEGIN SOLUTION");
      j++;
    }
    if (j === lines.length) throw new MarkerError(file, i + 1, "BEGIN SOLUTION without an END SOLUTION");
    if (indent === "") {
      if (lines[j + 1] === "") j++;
    } else {
      if (!currentFunction) throw new MarkerError(file, i + 1, "a SOLUTION region inside no exported function");
      out.push(`${indent}throw new NotImplementedError(${JSON.stringify(lesson)}, ${JSON.stringify(currentFunction)});`);
      usesError = true;
    }
    i = j;
  }
  return finishImports(out, lesson, usesError, resolved);
}

/** `import type` of the learner's file of `lesson` for the names, and their `const`s through the resolver. */
function resolverImport(names: string, lesson: string, file: string, resolved: string[]): string[] {
  const list = names.split(",").map((n) => n.trim()).filter((n) => n !== "");
  const alias = `${lesson.replace("lesson-", "Lesson")}${file.replace(/(^|[-.])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`;
  for (const name of list) {
    const [exported, local] = name.split(/\s+as\s+/);
    resolved.push(`const { fn: ${local ?? exported} } = await resolveFunction<typeof ${alias}.${exported}>(${JSON.stringify(lesson)}, ${JSON.stringify(exported)}, { useReference: true });`);
  }
  return [`import type * as ${alias} from "../${lesson}/${file}.js";`];
}

function finishImports(lines: string[], lesson: string, usesError: boolean, resolved: string[]): string {
  if (!usesError && resolved.length === 0) return lines.join("\n");
  let at = -1;
  for (let i = 0; i < lines.length; i++) if (/^import\b.*;\s*$/.test(lines[i])) at = i;
  if (at < 0 && lines[0]?.startsWith("/**")) at = lines.findIndex((l) => l.trimEnd().endsWith("*/"));
  const added: string[] = [];
  if (resolved.length > 0) added.push(`import { resolveFunction } from "../../lib/resolver.js";`);
  if (usesError) added.push(`import { NotImplementedError } from "../../lib/errors.js";`, "", ...stubNote(lesson));
  if (resolved.length > 0) {
    added.push(
      "",
      "// Other lessons' functions, through the course's resolver (lib/resolver.ts): their reference",
      "// solutions, so this lesson grades the same whatever your progress on those.",
      ...resolved,
    );
  }
  lines.splice(at + 1, 0, ...added);
  return lines.join("\n");
}
