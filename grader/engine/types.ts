/**
 * The grading contract as data. A lesson's grader (grader/lesson-NN/cases.ts) is a
 * `LessonGrader`: for each exercise, how to call it and a list of cases. The engine decides nothing
 * lesson-specific; it runs cases against whichever implementation the caller chose.
 */

/** |got − expected| ≤ atol + rtol·|expected|, elementwise. */
export interface Tolerance {
  rtol: number;
  atol: number;
}

/** Elementwise ops and short reductions (DESIGN.md "Tolerances"). */
export const ELEMENTWISE: Tolerance = { rtol: 1e-5, atol: 1e-6 };
/** Long reductions: sums over 10^4+, cumulative recursions over 512+ steps. */
export const LONG_REDUCTION: Tolerance = { rtol: 1e-4, atol: 1e-5 };
/** Integers and booleans compare exactly. */
export const EXACT: Tolerance = { rtol: 0, atol: 0 };

export type CaseKind = "worked" | "edge" | "random" | "fixture";

/** Inputs of one case: tensors, numbers, strings, options objects. Built fresh for every run. */
export type Inputs = Record<string, unknown>;

// A function under test is called with inputs the case built; its type is checked by the call.
export type AnyFn = (...args: any[]) => unknown;

export interface CaseDef {
  /** Short, specific: "worked example (lesson § Worked example)", "ragged mask B=3 R=7, seed 11". */
  name: string;
  kind: CaseKind;
  /** Builds the inputs; called once per run so no run can see another's tensors. */
  inputs: () => Inputs;
  /** Stored expectations (PyTorch fixtures). When absent, the reference on the same inputs. */
  expected?: () => unknown;
  /** Overrides the exercise's tolerance. */
  tolerance?: Tolerance;
  /** Overrides the exercise's `call` (e.g. to grade a gradient rather than a value). */
  call?: (fn: AnyFn, inputs: Inputs) => unknown;
  /** What this case checks, shown under a failure ("the gradient w.r.t. policy log-probs"). */
  checks?: string;
  /** Overrides the exercise's `keyOrder`. */
  keyOrder?: boolean;
}

export interface ExerciseDef {
  /** The export name, e.g. "maskedGae". */
  name: string;
  /** The file under exercises/<lesson>/ that exports it, e.g. "ppo.ts". */
  file: string;
  /** How to call the function with a case's inputs. */
  call: (fn: AnyFn, inputs: Inputs) => unknown;
  tolerance: Tolerance;
  cases: CaseDef[];
  /**
   * For a result with several outputs, the order in which differing outputs are reported: upstream
   * first (a wrong `importanceWeight` explains a wrong `loss`). Unlisted keys follow in result order.
   */
  outputOrder?: readonly string[];
  /** Where a failing result goes wrong, when the result alone (one scalar) cannot say. */
  probe?: Probe;
  /**
   * The order of an object result's keys is part of the contract (a state dict, a config written
   * out in order): every object in the result must list its keys in the reference's order.
   * Without it objects are compared on the union of their keys, in any order.
   */
  keyOrder?: boolean;
}

/**
 * A diagnostic probe: variants of a case's inputs that each isolate one part of the computation
 * (one row, one token). When a case fails, the learner's function and the reference are run on
 * every variant and the report names the first part whose results differ ("row 1: your 0.31,
 * expected 0.19"). A probe runs only for failing cases and never changes a verdict.
 */
export interface Probe {
  /** What a variant isolates, shown in the report: "row", "token", "pair". */
  unit: string;
  /** The variants of one case's inputs, each with its label ("row 1", "token (0, 2)"). */
  variants: (inputs: Inputs) => Array<{ label: string; inputs: Inputs }>;
}

export interface LessonGrader {
  lesson: string;
  exercises: ExerciseDef[];
}

/** A plausible wrong implementation, kept to prove the cases can fail. */
export interface MutantInfo {
  /** The exercise it replaces. */
  exercise: string;
  /** The mistake in a learner's words, shown as a hint when a learner's output matches it. */
  mistake: string;
}

/** One entry of a lesson's list of mutants (grader/<lesson>/mutants.ts). */
export interface MutantDef extends MutantInfo {
  /** A few words, unique within the exercise ("no-lambda"): the mutant is `<exercise>-<name>` in tests. */
  name: string;
  /** The wrong version of the exercise's function. */
  fn: AnyFn;
}

export type CaseStatus = "passed" | "failed" | "not-implemented" | "error" | "timeout";

export interface CaseResult {
  exercise: string;
  case: string;
  kind: CaseKind;
  status: CaseStatus;
  /** One line: why it failed, or the learner's error message. */
  message?: string;
  /** Further lines: the numbers behind the message. */
  details?: string[];
  /** exercises/lesson-23/ppo.ts:42:13 for a learner exception. */
  location?: string;
  /** The known mistake whose output equals the learner's. */
  mistake?: string;
  /** The case's inputs in brief, one line each (set on a case that did not pass). */
  inputs?: string[];
  /**
   * Set on a failure whose values differ from the expected ones (not one that failed on leaked
   * tensors or changed inputs alone): only such a failure can be named as a known mistake.
   */
  wrongValues?: true;
  /** The error is the file's: it could not be loaded, so every case of it reports the same. */
  loadError?: boolean;
  tolerance: Tolerance;
  ms: number;
}
