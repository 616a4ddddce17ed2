/** Messages between the grading child process (child.ts) and its parent (isolate.ts). No TensorFlow.js here. */
import type { CaseKind, CaseResult, Tolerance } from "./types.js";

export interface GradeJob {
  lesson: string;
  /** Absolute folder holding the lesson's implementation files. */
  implDir: string;
  only?: string[];
  /** "exercise::case" keys already reported. */
  skip?: string[];
  /** Look up known mistakes for failing outputs. */
  hints: boolean;
}

export interface PlannedCase {
  exercise: string;
  case: string;
  kind: CaseKind;
  tolerance: Tolerance;
}

export type ChildMessage =
  | { type: "plan"; backend: string; cases: PlannedCase[] }
  | { type: "start"; exercise: string; case: string }
  | { type: "result"; result: CaseResult }
  | { type: "done" }
  | { type: "fatal"; message: string; usage: boolean };

/** The key that names one case across processes: "exercise::case". */
export function caseKey(exercise: string, caseName: string): string {
  return `${exercise}::${caseName}`;
}
