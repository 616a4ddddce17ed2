/**
 * Runs a lesson's cases against an implementation, in this process, for trusted code only: the
 * course's self-checks (reference, stubs, mutants) and the engine's tests. A learner's code is
 * graded by isolate.ts instead, in a sandboxed process of its own. Both paths share the same
 * pieces (outputs.ts computes, judge.ts decides), so their verdicts agree.
 */
import type { AnyFn, CaseDef, CaseResult, ExerciseDef, LessonGrader, MutantInfo } from "./types.js";
import { caseOutput, probeOutputs, storedOutput, type CaseOutput } from "./outputs.js";
import { judgeCase, matchMistake, probeFinding } from "./judge.js";
import { caseKey, type PlannedCase } from "./protocol.js";
import { markKeyOrder } from "./encoded.js";

/** Export name → function, as loaded from exercises/, solutions/, a stub folder or a mutant. */
export type Implementation = Record<string, AnyFn | undefined>;

export interface KnownMutant {
  info: MutantInfo;
  fn: AnyFn;
}

export interface RunOptions {
  /** Grade only these exercises. */
  only?: readonly string[];
  /** Cases already reported ("exercise::case"), skipped. */
  skip?: ReadonlySet<string>;
  /** File → message for implementation files that failed to load. */
  loadErrors?: ReadonlyMap<string, string>;
  /** Known mistakes: when a failing output equals one of these, the report names it. */
  mutants?: readonly KnownMutant[];
  /** The folder being graded, so an exception's location can point into it. */
  implDir?: string;
  onResult?: (result: CaseResult) => void;
}

/** The cases a run grades, in order. */
export function plannedCases(grader: LessonGrader, only?: readonly string[], skip?: ReadonlySet<string>): PlannedCase[] {
  return grader.exercises
    .filter((e) => !only || only.includes(e.name))
    .flatMap((e) => e.cases.map((c) => ({ exercise: e.name, case: c.name, kind: c.kind, tolerance: c.tolerance ?? e.tolerance })))
    .filter((p) => !skip?.has(caseKey(p.exercise, p.case)));
}

/** The exercise and case definition a planned case names. */
export function findCase(grader: LessonGrader, exercise: string, name: string): { ex: ExerciseDef; c: CaseDef } | undefined {
  const ex = grader.exercises.find((e) => e.name === exercise);
  const c = ex?.cases.find((x) => x.name === name);
  return ex && c ? { ex, c } : undefined;
}

/** What an implementation produces on a case, or why it produced nothing (not exported, not loaded). */
export function implementationOutput(ex: ExerciseDef, c: CaseDef, impl: Implementation, opts: { loadErrors?: ReadonlyMap<string, string>; implDir?: string } = {}): CaseOutput {
  const loadError = opts.loadErrors?.get(ex.file);
  if (loadError !== undefined) return { status: "error", message: loadError, loadError: true, ms: 0 };
  const fn = impl[ex.name];
  if (typeof fn !== "function") return { status: "error", message: `${ex.file} does not export a function named ${ex.name}`, ms: 0 };
  return caseOutput(ex, c, fn, { implDir: opts.implDir, describe: true });
}

/**
 * The expected output of a case: its stored fixture, else the reference on the same inputs. When
 * the case (or its exercise) declares `keyOrder`, its objects are marked so that the comparison
 * checks key order too; the mark travels with the value to every path that judges it (this
 * process, the reference process, frozen expectations).
 */
export function expectedOutput(ex: ExerciseDef, c: CaseDef, reference: Implementation): CaseOutput {
  const ref = reference[ex.name];
  const out = c.expected
    ? storedOutput(c as CaseDef & { expected: () => unknown })
    : typeof ref === "function"
      ? caseOutput(ex, c, ref)
      : { status: "error" as const, message: `the reference solution does not export ${ex.name}`, ms: 0 };
  return out.status === "ok" && (c.keyOrder ?? ex.keyOrder) ? { ...out, value: markKeyOrder(out.value) } : out;
}

/** Grades every selected case and returns the results in order. */
export function runLesson(grader: LessonGrader, impl: Implementation, reference: Implementation, opts: RunOptions = {}): CaseResult[] {
  const results: CaseResult[] = [];
  for (const planned of plannedCases(grader, opts.only, opts.skip)) {
    const { ex, c } = findCase(grader, planned.exercise, planned.case)!;
    const got = implementationOutput(ex, c, impl, opts);
    const expected = expectedOutput(ex, c, reference);
    const result = judgeCase(planned, got, expected, { checks: c.checks, outputOrder: ex.outputOrder });
    if (result.status === "failed") {
      if (result.wrongValues) {
        const mutants = (opts.mutants ?? []).filter((m) => m.info.exercise === ex.name).map((m) => ({ mistake: m.info.mistake, output: caseOutput(ex, c, m.fn) }));
        result.mistake = matchMistake(got, mutants, { output: expected, tolerance: planned.tolerance });
      }
      const fn = impl[ex.name];
      const ref = reference[ex.name];
      if (ex.probe && fn && ref) {
        const where = probeFinding(ex.probe.unit, planned.tolerance, probeOutputs(ex, c, fn, opts), probeOutputs(ex, c, ref));
        if (where) result.details = [...(result.details ?? []), where];
      }
    }
    results.push(result);
    opts.onResult?.(result);
  }
  return results;
}
