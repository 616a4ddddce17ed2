/**
 * Which graded lessons the browser grades (build.ts bundles these), and for every other graded
 * lesson the exact reason it does not yet. Measured by building each lesson's cases for the
 * browser and grading its stubs, its reference and a known mistake in Chromium against the Node
 * grader (test/browser-grade.test.ts).
 */
export const BROWSER_LESSONS: readonly string[] = [
  "lesson-3",
  "lesson-4",
  "lesson-6",
  "lesson-8",
  "lesson-9",
  "lesson-10",
  "lesson-13",
  "lesson-14",
  "lesson-15",
  "lesson-17",
  "lesson-18",
  "lesson-19",
  "lesson-20",
  "lesson-22",
  "lesson-23",
  "lesson-24",
  "lesson-25",
  "lesson-27",
  "lesson-29",
  "lesson-30",
  "lesson-31",
  "lesson-32",
  "lesson-33",
  "lesson-34",
];

/**
 * Why an exercise that takes another lesson's function through lib/resolver.ts cannot be graded
 * in the page yet: there the Node grader's sandbox hands it that lesson's reference, which never
 * reaches the page (and the call is a top-level await, which the page's CommonJS compile refuses).
 */
const resolverReason = (file: string, uses: string) =>
  `${file} takes ${uses} through lib/resolver.ts at load time (a top-level await); the Node grader's sandbox hands it the reference of that lesson, which is never shipped to the page, and the page compiles only the graded lesson's files`;

/** Graded lessons not supported in the browser yet → why. */
export const BROWSER_UNSUPPORTED: Readonly<Record<string, string>> = {
  "lesson-5": resolverReason("exercises/lesson-5/sft.ts", "lesson-4's renderChat"),
  "lesson-11": `its cases import grader/engine/deps.ts, which imports solutions/lesson-12/rope.ts (a reference must not reach the page; a student edition replays recorded calls instead); and ${resolverReason("exercises/lesson-11/attention.ts", "lesson-9's rmsNorm and lesson-12's applyRope")}`,
  "lesson-12": "its cases import grader/engine/deps.ts, which imports solutions/lesson-12/rope.ts (a reference must not reach the page; a student edition replays recorded calls instead)",
  "lesson-21": resolverReason("exercises/lesson-21/dpo-data.ts", "lesson-4's renderChat and lesson-5's postProcessingChat and sftLabels"),
  "lesson-26": resolverReason("exercises/lesson-26/agent-reward.ts", "lesson-25's repetitionPenalty"),
};
