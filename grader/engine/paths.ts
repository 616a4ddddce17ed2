/**
 * Where the grader's things live: grader/lesson-NN/ holds everything it knows about one lesson
 * (cases.ts, mutants.ts and the variants*.ts they share, hints.ts, fixture*.json and the parity
 * scripts that write them). No TensorFlow.js here: the CLI imports it.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, coursePaths } from "../../lib/course/paths.js";

export { ROOT };

/**
 * Set only inside a learner's grading bundle (bundle.ts defines it): the folder holding the copies of
 * the data files grading reads there (fixtures without their expected values), since the learner's
 * process may not read grader/ or datasets/ itself.
 */
declare const __COURSE_LEARNER_DATA__: string | undefined;
const DATA_ROOT = typeof __COURSE_LEARNER_DATA__ === "string" ? __COURSE_LEARNER_DATA__ : ROOT;

export const paths = {
  ...coursePaths,
  /** The corpora and tokenizers (the bundle's copy inside a learner's bundle). */
  datasets: join(DATA_ROOT, "datasets"),
  /** Frozen expectations, in a student edition (written by `npm run release`). */
  expected: join(ROOT, "grader", "expected"),
};

/** grader/<lesson>/: everything the grader knows about one lesson. */
export function lessonDir(lesson: string): string {
  return join(ROOT, "grader", lesson);
}

/** grader/<lesson>/cases.ts: the lesson's LessonGrader. */
export function casesFile(lesson: string): string {
  return join(lessonDir(lesson), "cases.ts");
}

/** grader/<lesson>/hints.ts: the lesson's tiered hints (absent for a lesson without any). */
export function hintsFile(lesson: string): string {
  return join(lessonDir(lesson), "hints.ts");
}

/**
 * A lesson's golden fixture file: grader/<lesson>/fixture.json, or fixture-<part>.json for a second
 * one (lesson 4's tokenizer expectations). Inside a learner's bundle, the bundle's copy.
 */
export function fixtureFile(lesson: string, part?: string): string {
  return join(DATA_ROOT, "grader", lesson, part ? `fixture-${part}.json` : "fixture.json");
}

/** A fixture file's name (fixture.json, fixture-<part>.json), as fixtureFile writes it. */
export const FIXTURE_NAME = /^fixture(-[\w-]+)?\.json$/;

/** Lesson ids that have a grader (grader/lesson-NN/cases.ts), sorted by number. */
export function gradedLessons(): string[] {
  const dir = join(ROOT, "grader");
  return readdirSync(dir)
    .filter((f) => /^lesson-\d+$/.test(f) && existsSync(casesFile(f)))
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
}

/** A mutant list's file name: mutants.ts, or mutants-<part>.ts when a lesson's list is split. */
export const MUTANTS_NAME = /^mutants(-[\w-]+)?\.ts$/;

/** The files listing a lesson's mutants (grader/<lesson>/mutants*.ts), sorted. */
export function mutantFiles(lesson: string): string[] {
  const dir = lessonDir(lesson);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => MUTANTS_NAME.test(f))
    .sort()
    .map((f) => join(dir, f));
}
