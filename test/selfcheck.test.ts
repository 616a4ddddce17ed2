/**
 * For every graded lesson: the reference passes, the stubs are unfinished, every mutant is caught,
 * exercises/ holds the generated stubs, and each function has the kinds of cases the design asks for.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { initBackend } from "../lib/backend.js";
import { findLesson } from "../lib/catalog.js";
import { gradedLessons } from "../grader/engine/paths.js";
import { gradeGeneratedStubs, gradeMutant, gradeReference, loadLessonUnderTest, type LessonUnderTest } from "../grader/engine/selfcheck.js";
import { runLesson } from "../grader/engine/run.js";
import { loadMutants, type LoadedMutant } from "../grader/engine/load.js";
import { stubStatuses } from "../tools/stubs/sync.js";

await initBackend("cpu");

const lessons = gradedLessons();

/** Each lesson's mutant ids, read now so that each mutant is a test of its own; a list that fails to load fails its lesson only. */
const mutantIds = new Map<string, string[] | Error>();
for (const lesson of lessons) {
  mutantIds.set(lesson, await loadMutants(lesson).then((ms) => ms.map((m) => m.id), (err: unknown) => (err instanceof Error ? err : new Error(String(err)))));
}

it("there is at least one graded lesson, and each is in the catalog", () => {
  expect(lessons.length).toBeGreaterThan(0);
  for (const id of lessons) expect(findLesson(id)?.id, id).toBe(id);
});

describe.each(lessons)("%s", (lesson) => {
  // Loaded in beforeAll so that one lesson's broken grader fails its own tests, not the whole file.
  let l: LessonUnderTest;
  beforeAll(async () => {
    l = await loadLessonUnderTest(lesson);
  });
  const ids = mutantIds.get(lesson)!;

  it("the reference solution passes every case", () => {
    const failures = gradeReference(l).filter((r) => r.status !== "passed");
    expect(failures.map((r) => `${r.exercise} / ${r.case}: ${r.status} ${r.message ?? ""} ${(r.details ?? []).join("; ")}`)).toEqual([]);
  });

  it("every generated stub reports 'not implemented' on every case", async () => {
    const results = await gradeGeneratedStubs(l);
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status !== "not-implemented").map((r) => `${r.exercise} / ${r.case}: ${r.status}`)).toEqual([]);
  });

  it("every function has worked, edge, random and fixture cases and at least three mutants", () => {
    for (const ex of l.grader.exercises) {
      const kinds = new Set(ex.cases.map((c) => c.kind));
      expect([...kinds].sort(), ex.name).toEqual(["edge", "fixture", "random", "worked"]);
      expect(new Set(ex.cases.map((c) => c.name)).size, `${ex.name}: case names must be unique`).toBe(ex.cases.length);
      expect(l.mutants.filter((m) => m.info.exercise === ex.name).length, `${ex.name} mutants`).toBeGreaterThanOrEqual(3);
    }
    for (const m of l.mutants) expect(l.grader.exercises.map((e) => e.name), m.id).toContain(m.info.exercise);
  });

  it("its list of mutants loads, with ids unique within the lesson", () => {
    if (ids instanceof Error) throw ids;
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(ids instanceof Error ? [] : ids)("mutant %s is caught", (id) => {
    const m = l.mutants.find((x) => x.id === id)!;
    const results = gradeMutant(l, m);
    expect(results.some((r) => r.status === "failed" || r.status === "error"), `survived all ${results.length} cases`).toBe(true);
  });

  it("a mutant's own output is recognised and named as its mistake", () => {
    const m = l.mutants[0];
    const failed = runWithHints(l, m).find((r) => r.status === "failed");
    expect(failed?.mistake).toBe(m.info.mistake);
  });

  it("exercises/ holds the stubs generated from solutions/", () => {
    const bad = stubStatuses([lesson]).filter((s) => s.state !== "up-to-date" && s.state !== "learner-edited");
    expect(bad.map((s) => `${s.exercisePath}: ${s.state} (run \`npm run stubs\`)`)).toEqual([]);
  });
});

function runWithHints(l: LessonUnderTest, m: LoadedMutant) {
  return runLesson(l.grader, { ...l.reference, [m.info.exercise]: m.fn }, l.reference, { only: [m.info.exercise], mutants: l.mutants });
}
