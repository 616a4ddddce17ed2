import type { FunctionHints } from "./hint-types.js";
/** A lesson's Chinese texts: grader/lesson-NN/zh.ts exports default one. */
export interface LessonZh {
  lesson: string; // "lesson-23"
  /** Exercise name → its three hint tiers in Chinese (plain text, Unicode math, no LaTeX, as the English). */
  hints: Record<string, FunctionHints>;
  /** Exercise name → mutant name → the mistake in Chinese (every MutantDef's `mistake`). */
  mistakes: Record<string, Record<string, string>>;
}
