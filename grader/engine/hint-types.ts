/**
 * Tiered hints for a lesson's exercises, as data: grader/lesson-NN/hints.ts exports default a
 * `LessonHints`. `npm run hint lesson-NN [function]` reveals one tier per call, in TIERS order.
 * Write hints in plain text (the terminal shows them): Unicode math, no LaTeX.
 */
export interface FunctionHints {
  /** A question or observation that points the right way without giving the method. */
  nudge: string;
  /** The method in words: what to compute, in which order, and the trap to avoid. */
  keyIdea: string;
  /** The exact rule, and the source lines it mirrors. */
  formula: string;
}

export interface LessonHints {
  lesson: string;
  /** Exercise name → its hints. */
  functions: Record<string, FunctionHints>;
}

/** The tiers in the order they are revealed, with the label shown before each. */
export const TIERS: ReadonlyArray<{ key: keyof FunctionHints; label: string }> = [
  { key: "nudge", label: "a nudge" },
  { key: "keyIdea", label: "the key idea" },
  { key: "formula", label: "the formula" },
];
