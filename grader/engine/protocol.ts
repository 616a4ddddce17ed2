/**
 * Messages between the grading processes and their parent (isolate.ts). Two children, two
 * channels: the reference process (reference-child.ts) plans the cases and sends expected outputs;
 * the learner's sandboxed process (learner-child.ts) sends the learner's outputs. Only data
 * crosses: no verdict is ever sent by a child. No TensorFlow.js here.
 */
import type { CaseOutput } from "./outputs.js";
import type { CaseKind, Tolerance } from "./types.js";

export interface GradeJob {
  lesson: string;
  /** Absolute folder holding the lesson's implementation files. */
  implDir: string;
  only?: string[];
  /** Look up known mistakes and run probes for failing outputs. */
  hints: boolean;
  /**
   * The gradebook's hidden cases: every random case is also graded with its seeds mixed with this
   * salt (grader/engine/hidden.ts), as "hidden: <case>". Derived from the instructor's secret, never
   * the secret itself. Undefined or 0: public cases only.
   */
  hiddenSalt?: number;
  /** implDir is solutions/<lesson> on purpose (`--solutions`, self-checks); otherwise a folder that resolves into solutions/ is refused. */
  reference?: boolean;
}

export interface PlannedCase {
  exercise: string;
  case: string;
  kind: CaseKind;
  tolerance: Tolerance;
}

/** A planned case as the reference process describes it: what the parent needs to judge it. */
export interface PlanEntry extends PlannedCase {
  /** The exercise's file under the lesson folder ("ppo.ts"). */
  file: string;
  checks?: string;
  outputOrder?: readonly string[];
  /** The exercise's probe unit, when it declares a probe. */
  probeUnit?: string;
}

export type ProbeOutput = { label: string; output: CaseOutput };

export type ReferenceRequest =
  | { type: "plan"; lesson: string; only?: string[]; hiddenSalt?: number }
  | { type: "mutants"; exercise: string; case: string }
  | { type: "probe"; exercise: string; case: string };

export type ReferenceMessage =
  | { type: "plan"; backend: string; cases: PlanEntry[] }
  | { type: "expected"; exercise: string; case: string; output: CaseOutput }
  | { type: "done" }
  | { type: "mutants"; exercise: string; case: string; outputs: Array<{ mistake: string; output: CaseOutput }> }
  | { type: "probe"; exercise: string; case: string; outputs: ProbeOutput[] }
  | { type: "fatal"; message: string; usage: boolean };

export type LearnerRequest =
  /** Run the lesson's cases (of `only`'s exercises, when given) except the `skip` keys ("exercise::case"). */
  | { type: "run"; only?: string[]; skip: string[]; hiddenSalt?: number }
  | { type: "probe"; exercise: string; case: string }
  | { type: "bye" };

export type LearnerMessage =
  | { type: "loaded"; backend: string }
  | { type: "start"; exercise: string; case: string }
  | { type: "output"; exercise: string; case: string; output: CaseOutput }
  | { type: "done" }
  | { type: "probe"; exercise: string; case: string; outputs: ProbeOutput[] };

/** The key that names one case across processes: "exercise::case". */
export function caseKey(exercise: string, caseName: string): string {
  return `${exercise}::${caseName}`;
}
