/**
 * Hints give the method, never the reference's code (issue 24): no tier of any function's hints
 * names a TensorFlow.js call (`tf.exp`, …) or holds a line of the lesson's reference solution:
 * compared with whitespace removed, for lines of at least 25 characters so normalised, and as a
 * run of 14 code tokens with the names renamed (pseudo-code that is the reference's line).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, gradedLessons, hintsFile } from "../grader/engine/paths.js";
import { TIERS, type LessonHints } from "../grader/engine/hint-types.js";

/** A line (or a hint) with its whitespace removed and a trailing ; or , dropped. */
export function normalise(s: string): string {
  return s.replace(/\s+/g, "").replace(/[;,]+$/, "");
}

/** The code lines of a lesson's solution regions, normalised, at least 25 characters long. */
function referenceLines(lesson: string): { normalised: string[]; raw: string[] } {
  const dir = join(ROOT, "solutions", lesson);
  const lines = new Set<string>();
  const raw = new Set<string>();
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts"))) {
    let inside = false;
    for (const text of readFileSync(join(dir, f), "utf8").split("\n")) {
      const t = text.trim();
      if (t.includes("BEGIN SOLUTION")) inside = true;
      else if (t.includes("END SOLUTION")) inside = false;
      else if (inside && !t.startsWith("//") && !t.startsWith("*") && !t.startsWith("/*")) {
        const n = normalise(t.replace(/\/\/.*$/, ""));
        if (n.length >= 25) lines.add(n);
        raw.add(t);
      }
    }
  }
  return { normalised: [...lines], raw: [...raw] };
}

const KEYWORDS = new Set(["typeof", "in", "of", "if", "else", "for", "return", "new", "null", "undefined", "true", "false", "let", "const"]);

/**
 * Code as a token sequence that survives renaming: identifiers become "id", strings and numbers
 * "lit", keywords and operators stay; parentheses, `let`/`const` and semicolons are dropped.
 */
export function codeTokens(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|===|!==|=>|\?\?|&&|\|\||[<>=!]=|\S/g)) {
    const t = m[0];
    if (t === "(" || t === ")" || t === ";" || t === "let" || t === "const") continue;
    if (/^["'`\d]/.test(t)) out.push("lit");
    else if (/^[A-Za-z_$]/.test(t)) out.push(KEYWORDS.has(t) ? t : "id");
    else out.push(t);
  }
  return out;
}

/** Whether `hint` holds a run of `n` tokens of `code` (see codeTokens), e.g. a line with its variables renamed. */
export function sharesCodeRun(hint: string, code: readonly string[], n = 14): boolean {
  const h = codeTokens(hint).join(" ");
  for (const line of code) {
    const t = codeTokens(line);
    for (let i = 0; i + n <= t.length; i++) if (` ${h} `.includes(` ${t.slice(i, i + n).join(" ")} `)) return true;
  }
  return false;
}

/** What is wrong with one tier's text: TensorFlow.js calls, or a line of the reference. */
export function tierProblems(text: string, reference: readonly string[], rawReference: readonly string[] = []): string[] {
  const problems: string[] = [];
  const calls = text.match(/\btf\.[A-Za-z_]\w*/g);
  if (calls) problems.push(`names TensorFlow.js calls: ${[...new Set(calls)].join(", ")}`);
  const flat = normalise(text);
  for (const line of reference) if (flat.includes(line)) problems.push(`holds a line of the reference: ${line}`);
  for (const line of rawReference) if (sharesCodeRun(text, [line])) problems.push(`holds the reference's code with other names: ${line}`);
  return problems;
}

describe("hints hold no code", () => {
  it("the check itself catches a tf. call and a reference line", () => {
    expect(tierProblems("Use tf.exp on the difference.", [])).toHaveLength(1);
    expect(tierProblems("Write  const x = a.add(b).mul(c);  then return.", ["constx=a.add(b).mul(c)"])).toHaveLength(1);
    expect(tierProblems("Add the two and scale by c.", ["constx=a.add(b).mul(c)"])).toEqual([]);
    // The reference's line with its variables renamed is still its code.
    const line = 'calls.push({ name: typeof call.name === "string" ? call.name : "", arguments: isObject(args) ? args : {} });';
    expect(tierProblems("push { name: typeof c.name === 'string' ? c.name : '', arguments: isObject(a) ? a : {} }", [], [line])).toHaveLength(1);
    expect(tierProblems("name: the call's name when it is a string, else the empty string; arguments: an object, else {}.", [], [line])).toEqual([]);
  });

  for (const lesson of gradedLessons().filter((l) => existsSync(hintsFile(l)))) {
    it(`${lesson}: no tier names a tf. call or holds a line of the reference solution`, async () => {
      const hints = ((await import(hintsFile(lesson))) as { default: LessonHints }).default;
      const reference = referenceLines(lesson);
      const problems: string[] = [];
      for (const [fn, h] of Object.entries(hints.functions)) {
        for (const { key } of TIERS) for (const p of tierProblems(h[key], reference.normalised, reference.raw)) problems.push(`${fn}.${key}: ${p}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
