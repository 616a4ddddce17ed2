/**
 * Folds case results into per-function and per-lesson verdicts. Pure data, shared by the report,
 * the progress table and the tests.
 */
import type { CaseResult, CaseStatus } from "./types.js";

export type FunctionVerdict = "passed" | "failed" | "not-implemented" | "error" | "timeout";

export interface FunctionSummary {
  exercise: string;
  verdict: FunctionVerdict;
  passed: number;
  total: number;
  results: CaseResult[];
}

/** The worst status wins: timeout > error > failed > not implemented > passed. */
const SEVERITY: Record<CaseStatus, number> = { passed: 0, "not-implemented": 1, failed: 2, error: 3, timeout: 4 };

export function summarise(results: readonly CaseResult[]): FunctionSummary[] {
  const byExercise = new Map<string, CaseResult[]>();
  for (const r of results) byExercise.set(r.exercise, [...(byExercise.get(r.exercise) ?? []), r]);
  return [...byExercise.entries()].map(([exercise, rs]) => {
    const passed = rs.filter((r) => r.status === "passed").length;
    const notImplemented = rs.every((r) => r.status === "not-implemented");
    const worst = rs.reduce<CaseStatus>((w, r) => (SEVERITY[r.status] > SEVERITY[w] ? r.status : w), "passed");
    const verdict: FunctionVerdict = notImplemented ? "not-implemented" : worst === "not-implemented" ? "failed" : worst;
    return { exercise, verdict, passed, total: rs.length, results: rs };
  });
}

export function allPassed(results: readonly CaseResult[]): boolean {
  return results.length > 0 && results.every((r) => r.status === "passed");
}

/**
 * The known mistake a function's output equals on every case it failed, if there is one. A mistake
 * matched on some failing cases only is not named: two different bugs can agree on a special case.
 */
export function consistentMistake(results: readonly CaseResult[]): string | undefined {
  const failed = results.filter((r) => r.status === "failed");
  const first = failed[0]?.mistake;
  return first !== undefined && failed.every((r) => r.mistake === first) ? first : undefined;
}
