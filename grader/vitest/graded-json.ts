/**
 * A lesson's grading (tools/loop/grading.ts's `Graded`) as JSON text and back: how the vitest
 * worker that judged the cases hands the whole result (every case, what the code printed, the
 * backend, the record saved) to the reporters in the main process, through the file's task meta.
 */
import type { Graded } from "../../tools/loop/grading.js";

/** Graded as text (the learner inputs' Map as its entries). */
export type GradedJson = string;

export function serializeGraded(g: Graded): GradedJson {
  return JSON.stringify({ ...g, run: { ...g.run, learnerInputs: g.run.learnerInputs ? [...g.run.learnerInputs] : undefined } });
}

export function parseGraded(text: GradedJson): Graded {
  const g = JSON.parse(text) as Graded & { run: { learnerInputs?: Array<[string, string]> } };
  return { ...g, run: { ...g.run, learnerInputs: g.run.learnerInputs ? new Map(g.run.learnerInputs) : undefined } };
}
