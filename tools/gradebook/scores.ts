/**
 * Totals: each learner's points per lesson and in all, the late rule applied to the whole from the
 * submission's time (the assignment's lateFactor). Rows carry each function's score before it.
 */
import { lateFactor, type Assignment } from "../classroom/assignment.js";
import { round, type Row } from "./book.js";
import type { Learner } from "./submissions.js";

export interface LearnerTotal {
  learner: string;
  /** Lesson → points possible and scored (before the late rule). */
  lessons: Record<string, { points: number; score: number }>;
  points: number;
  /** The sum of the function scores, before the late rule. */
  raw: number;
  submittedAt?: string;
  commit?: string;
  source?: string;
  daysLate: number;
  /** What `raw` is multiplied by: 1 on time. */
  lateFactor: number;
  /** The learner's score: raw × lateFactor. */
  score: number;
}

/** Every learner's totals, in the order of `learners`. */
export function learnerTotals(rows: readonly Row[], learners: readonly Learner[], assignment: Assignment): LearnerTotal[] {
  return learners.map((l) => {
    const mine = rows.filter((r) => r.learner === l.name);
    const lessons: LearnerTotal["lessons"] = {};
    for (const r of mine) {
      const t = (lessons[r.lesson] ??= { points: 0, score: 0 });
      t.points = round(t.points + r.points);
      t.score = round(t.score + r.score);
    }
    const raw = round(mine.reduce((s, r) => s + r.score, 0));
    const late = lateFactor(assignment, l.submittedAt);
    return {
      learner: l.name,
      lessons,
      points: round(mine.reduce((s, r) => s + r.points, 0)),
      raw,
      submittedAt: l.submittedAt?.toISOString(),
      commit: l.commit,
      source: l.source,
      daysLate: late.daysLate,
      lateFactor: round(late.factor),
      score: round(raw * late.factor),
    };
  });
}
