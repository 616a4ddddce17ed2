/**
 * Computes a lesson's frozen expectations (frozen.ts) from its reference solution and its known
 * mistakes, in this process: trusted code only, run by the instructor's release step.
 */
import { fingerprint, referenceHash, type FrozenLesson } from "./frozen.js";
import { loadGrader, loadImplementation, loadMutants } from "./load.js";
import { caseOutput, hashInputs, probeOutputs, disposeAll, type CaseOutput } from "./outputs.js";
import { join } from "node:path";
import { paths } from "./paths.js";
import { expectedOutput, findCase, plannedCases } from "./run.js";
import { tensorsIn } from "./compare.js";

/** An output without its timing, so that freezing twice writes the same bytes. */
function timeless(o: CaseOutput): CaseOutput {
  return { ...o, ms: 0 };
}

export async function freezeLesson(lesson: string, backend: string): Promise<FrozenLesson> {
  const grader = await loadGrader(lesson);
  const reference = await loadImplementation(grader, join(paths.solutions, lesson));
  if (reference.loadErrors.size > 0) throw new Error(`the reference of ${lesson} failed to load: ${[...reference.loadErrors.values()].join("; ")}`);
  const mutants = await loadMutants(lesson);
  const cases = plannedCases(grader).map((p) => {
    const { ex, c } = findCase(grader, p.exercise, p.case)!;
    const inputs = c.inputs();
    const inputsHash = hashInputs(inputs);
    disposeAll(tensorsIn(inputs));
    const ref = reference.impl[ex.name];
    const expected = timeless(expectedOutput(ex, c, reference.impl));
    return {
      plan: { ...p, file: ex.file, checks: c.checks, outputOrder: ex.outputOrder, probeUnit: ex.probe?.unit },
      inputsHash,
      expected,
      mistakes: mutants.filter((m) => m.info.exercise === ex.name).map((m) => ({ mistake: m.info.mistake, name: m.id.slice(m.info.exercise.length + 1), fingerprint: fingerprint(caseOutput(ex, c, m.fn), expected) })),
      ...(ex.probe && ref ? { probe: probeOutputs(ex, c, ref).map((v) => ({ label: v.label, output: timeless(v.output) })) } : {}),
    };
  });
  return { version: 1, lesson, backend, referenceHash: referenceHash(lesson), cases };
}
