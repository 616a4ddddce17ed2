/**
 * The verdict on one case, from data alone: what the implementation under test produced, what the
 * reference produced (or the stored fixture), and, for a failure, known mistakes' outputs and probe
 * results. It runs in the parent process, which never loads a learner's module, so nothing the
 * learner's code does in its own process can change a comparison. No TensorFlow.js here.
 */
import { compareEncoded, scalarOf } from "./encoded.js";
import { fmt } from "./format.js";
import type { CaseOutput } from "./outputs.js";
import type { PlannedCase } from "./protocol.js";
import { ELEMENTWISE, type CaseResult, type Tolerance } from "./types.js";

export interface JudgeOptions {
  /** What the case checks, shown under a failure. */
  checks?: string;
  /** The exercise's outputOrder (upstream outputs first). */
  outputOrder?: readonly string[];
}

/** The verdict on one planned case. `expected` must be the reference's (or the fixture's) output. */
export function judgeCase(planned: PlannedCase, got: CaseOutput, expected: CaseOutput, opts: JudgeOptions = {}): CaseResult {
  const result = judgeOutput(planned, got, expected, opts);
  const diagnosable = result.status === "failed" || result.status === "error";
  return diagnosable && got.inputs && got.inputs.length > 0 ? { ...result, inputs: got.inputs } : result;
}

function judgeOutput(planned: PlannedCase, got: CaseOutput, expected: CaseOutput, opts: JudgeOptions): CaseResult {
  const base = { exercise: planned.exercise, case: planned.case, kind: planned.kind, tolerance: planned.tolerance, ms: got.ms };
  if (got.status === "not-implemented") return { ...base, status: "not-implemented", message: got.message };
  if (got.status === "error") return { ...base, status: "error", message: got.message, location: got.location, details: got.details, ...(got.loadError ? { loadError: true } : {}) };
  if (expected.status !== "ok") {
    return { ...base, status: "error", message: `grader bug: the reference could not produce this case's expected value (${expected.message})` };
  }
  const mismatch = compareEncoded(got.value, expected.value, planned.tolerance, "", opts.outputOrder);
  const notes: string[] = [];
  if (opts.checks) notes.push(`this case checks ${opts.checks}`);
  if (got.mutated.length > 0) notes.push(`it changed its inputs (${got.mutated.join(", ")}): never modify or dispose an input`);
  if (got.leaked > 0) notes.push(`it leaked ${got.leaked} tensor(s): wrap the body in tf.tidy(() => …) so intermediates are freed`);
  if (mismatch) return { ...base, status: "failed", message: mismatch.message, details: [...mismatch.details, ...notes], wrongValues: true };
  if (got.mutated.length > 0) return { ...base, status: "failed", message: `${planned.exercise} modified its inputs: ${got.mutated.join(", ")}`, details: notes };
  if (got.leaked > 0) return { ...base, status: "failed", message: `${planned.exercise} leaked ${got.leaked} tensor(s)`, details: notes };
  return { ...base, status: "passed" };
}

/**
 * The known mistake whose output equals the learner's on this case (the first in the lesson's
 * order), if one does. "Equals" is elementwise closeness no looser than the case's own tolerance:
 * a case that compares numbers of 1e-7 with atol 1e-13 tells two of its outputs apart, so the
 * match does too. A mistake whose output on this case is the expected one, within the case's
 * tolerance, changes no value here (a leak, a guard the case does not reach), so it cannot be what
 * made the learner's values wrong: it is never named for this case.
 */
export function matchMistake(got: CaseOutput, mutants: ReadonlyArray<{ mistake: string; output: CaseOutput }>, expected: { output: CaseOutput; tolerance: Tolerance }): string | undefined {
  if (got.status !== "ok") return undefined;
  const want = expected.output;
  const same: Tolerance = { rtol: Math.min(ELEMENTWISE.rtol, expected.tolerance.rtol), atol: Math.min(ELEMENTWISE.atol, expected.tolerance.atol) };
  for (const m of mutants) {
    if (m.output.status !== "ok") continue;
    if (want.status === "ok" && compareEncoded(m.output.value, want.value, expected.tolerance) === null) continue;
    if (compareEncoded(got.value, m.output.value, same) === null) return m.mistake;
  }
  return undefined;
}

export type ProbeOutputs = ReadonlyArray<{ label: string; output: CaseOutput }>;

/**
 * The first probe variant on which the learner's result and the reference's differ, as one report
 * line ("row 1: your result 0.31, expected 0.19"); undefined when none does or a side could not run.
 */
export function probeFinding(unit: string, tolerance: PlannedCase["tolerance"], learner: ProbeOutputs, reference: ProbeOutputs): string | undefined {
  for (let i = 0; i < Math.min(learner.length, reference.length); i++) {
    const got = learner[i].output;
    const want = reference[i].output;
    if (want.status !== "ok") return undefined;
    if (got.status !== "ok") return `with only ${reference[i].label} kept, your function ${got.status === "error" ? `threw: ${got.message}` : "is not implemented"}`;
    const m = compareEncoded(got.value, want.value, tolerance);
    if (!m) continue;
    const g = scalarOf(got.value);
    const e = scalarOf(want.value);
    const what = g !== undefined && e !== undefined ? `your result ${fmt(g)}, expected ${fmt(e)}` : m.message.replace(/^the result /, "the result ");
    return `where: with only ${reference[i].label} kept, ${what} (the first ${unit} that differs)`;
  }
  return undefined;
}
