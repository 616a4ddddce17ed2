/**
 * Generates an exercise stub from a reference solution.
 *
 * Solutions mark the part a learner writes with `// BEGIN SOLUTION` … `// END SOLUTION`:
 * - inside a function (an indented marker) the region becomes
 *   `throw new NotImplementedError("<lesson>", "<function>");`
 * - at the top level (a marker in column 0, e.g. a private helper) the region is removed.
 * The stub imports NotImplementedError from lib/errors.ts when it throws one.
 */
const BEGIN = /^(\s*)\/\/ BEGIN SOLUTION\s*$/;
const END = /^\s*\/\/ END SOLUTION\s*$/;
const EXPORTED_FUNCTION = /^export (?:async )?function (\w+)/;

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
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
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
  return usesError ? addErrorImport(out, lesson) : out.join("\n");
}

function addErrorImport(lines: string[], lesson: string): string {
  let at = -1;
  for (let i = 0; i < lines.length; i++) if (/^import\b.*;\s*$/.test(lines[i])) at = i;
  if (at < 0 && lines[0]?.startsWith("/**")) at = lines.findIndex((l) => l.trimEnd().endsWith("*/"));
  lines.splice(at + 1, 0, `import { NotImplementedError } from "../../lib/errors.js";`, "", ...stubNote(lesson));
  return lines.join("\n");
}
