/**
 * The course's proof that its graders work, as a library the tests call: the reference passes
 * every case, the generated stubs report "not implemented", and every known mutant fails at least
 * one case. Stubs are written to a temporary folder at the depth of exercises/, never over the
 * learner's working copy.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateStub } from "../../lib/stubs.js";
import { loadGrader, loadImplementation, loadMutants, type LoadedMutant } from "./load.js";
import { ROOT, paths } from "./paths.js";
import { runLesson, type Implementation } from "./run.js";
import type { CaseResult, LessonGrader } from "./types.js";

export interface LessonUnderTest {
  grader: LessonGrader;
  reference: Implementation;
  mutants: LoadedMutant[];
}

export async function loadLessonUnderTest(lesson: string): Promise<LessonUnderTest> {
  const grader = await loadGrader(lesson);
  const ref = await loadImplementation(grader, join(paths.solutions, lesson));
  if (ref.loadErrors.size > 0) throw new Error([...ref.loadErrors.values()].join("\n"));
  return { grader, reference: ref.impl, mutants: await loadMutants(lesson) };
}

export function gradeReference(l: LessonUnderTest): CaseResult[] {
  return runLesson(l.grader, l.reference, l.reference);
}

/** Grades one mutant: the reference with the mutant's function swapped in, on that function's cases. */
export function gradeMutant(l: LessonUnderTest, m: LoadedMutant): CaseResult[] {
  return runLesson(l.grader, { ...l.reference, [m.info.exercise]: m.fn }, l.reference, { only: [m.info.exercise] });
}

/** Generates the lesson's stubs into a temporary folder beside exercises/ and grades them. */
export async function gradeGeneratedStubs(l: LessonUnderTest): Promise<CaseResult[]> {
  const lesson = l.grader.lesson;
  const dir = mkdtempSync(join(ROOT, ".selfcheck-"));
  try {
    const lessonDir = join(dir, lesson);
    mkdirSync(lessonDir);
    for (const file of readdirSync(join(paths.solutions, lesson)).filter((f) => f.endsWith(".ts"))) {
      writeFileSync(join(lessonDir, file), generateStub(readFileSync(join(paths.solutions, lesson, file), "utf8"), lesson, file));
    }
    const stubs = await loadImplementation(l.grader, lessonDir);
    if (stubs.loadErrors.size > 0) throw new Error([...stubs.loadErrors.values()].join("\n"));
    return runLesson(l.grader, stubs.impl, l.reference);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
