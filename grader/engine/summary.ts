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

export interface NamedMistake {
  mistake: string;
  /** Failing cases (with wrong values) whose output equals the mistake's. */
  matched: number;
  /** Failing cases with wrong values (failures on leaks or changed inputs alone are not counted). */
  failed: number;
  /** Cases that threw or timed out instead of producing an output. */
  crashed: number;
}

/**
 * The known mistake that explains a function's failures: the one matched on the most failing
 * cases, named only when that is more than half of the cases that failed with an output and no
 * other mistake matches as many. Two different bugs can agree on a special case (γ = λ, T = 1, a
 * group of one), so a mistake matched on a minority of the failures is not named. Only failures on
 * values count: a correct function that leaks tensors equals every mistake that agrees with the
 * reference on some case, and is not told it made one.
 */
export function namedMistake(results: readonly CaseResult[]): NamedMistake | undefined {
  const failed = results.filter((r) => r.status === "failed" && r.wrongValues);
  const crashed = results.filter((r) => r.status === "error" || r.status === "timeout").length;
  const counts = new Map<string, number>();
  for (const r of failed) if (r.mistake !== undefined) counts.set(r.mistake, (counts.get(r.mistake) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return undefined;
  const [[mistake, matched], second] = ranked;
  if (matched * 2 <= failed.length || second?.[1] === matched) return undefined;
  return { mistake, matched, failed: failed.length, crashed };
}
