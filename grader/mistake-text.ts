/**
 * Named mistakes in another language: each failing case's `mistake` (the English text the frozen
 * expectations or the mutants give) replaced by its translation, where the table has one. Pure,
 * so the terminal (i18n.ts's localiseMistakes) and the browser's workspace pages share it.
 */
import type { FunctionSummary } from "./engine/summary.js";

/** Exercise → English mistake text → its translation. */
export type MistakeTexts = Record<string, Record<string, string>>;

/** `summaries` with every mistake that `table` translates (for its exercise) in its translation; the rest untouched. */
export function translateMistakes<S extends FunctionSummary>(summaries: readonly S[], table: MistakeTexts): S[] {
  return summaries.map((s) => {
    const byText = table[s.exercise];
    if (!byText) return s;
    return { ...s, results: s.results.map((r) => (r.mistake !== undefined && Object.hasOwn(byText, r.mistake) ? { ...r, mistake: byText[r.mistake] } : r)) };
  });
}
