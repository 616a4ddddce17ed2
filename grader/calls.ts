/**
 * Which of a lesson's graded functions each one calls, read from the text of the lesson's files:
 * the report's "F calls G, which does not pass either". No file system here, so the browser's
 * workspace page reads the editor's files with the same rule as the terminal (functions.ts's
 * lessonCalls reads them from disk).
 */

/**
 * For each of `names`, the other names of `names` its body calls, in `texts` (the lesson's .ts
 * files; an `export function` runs to the next top-level `export`). A heuristic: a name that only
 * appears in a comment counts as well.
 */
export function callsIn(texts: readonly string[], names: readonly string[]): Map<string, string[]> {
  const calls = new Map<string, string[]>();
  for (const text of texts) {
    for (const m of text.matchAll(/^export function (\w+)[\s\S]*?(?=^export |(?![\s\S]))/gm)) {
      const [body, name] = m;
      if (!names.includes(name)) continue;
      calls.set(name, names.filter((g) => g !== name && new RegExp(`\\b${g}\\s*\\(`).test(body)));
    }
  }
  return calls;
}
