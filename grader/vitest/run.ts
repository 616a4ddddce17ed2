/**
 * `npm run grade lesson-NN` through vitest: runs the `grade` project's test file of the lesson
 * (grader/lesson-NN/grade.test.ts) with vitest's Node API and returns the lesson's grading as the
 * engine made it, for the course's report. What vitest itself would print is left to its reporters
 * when a learner runs vitest directly; here the one reporter collects.
 */
import { join, relative } from "node:path";
import type { TestModule } from "vitest/node";
import type { Graded } from "../../tools/loop/grading.js";
import { ROOT } from "../engine/paths.js";
import { parseGraded } from "./graded-json.js";
import type { SuiteSettings } from "./suite.js";

/** The lesson's test file, relative to the course root. */
export function lessonTestFile(lesson: string): string {
  return relative(ROOT, join(ROOT, "grader", lesson, "grade.test.ts"));
}

/** The environment suite.ts reads its settings from. */
export function settingsEnv(s: SuiteSettings): Record<string, string> {
  return { COURSE_GRADE_SOLUTIONS: s.solutions ? "1" : "", COURSE_GRADE_ONLY: s.only ?? "", COURSE_GRADE_TIMEOUT_MS: String(s.caseTimeoutMs), COURSE_GRADE_AT_ONCE: "1" };
}

/** A vitest test-name filter for one function of a lesson ("lesson-23 maskedGae "): its cases only. */
export function functionFilter(lesson: string, fn: string): string {
  return `^${lesson} ${fn} `;
}

/** The grading a test module carried in its meta (suite.ts), if it reported one. */
export function gradedOf(module: TestModule): Graded | undefined {
  const text = module.meta().courseGraded;
  return text === undefined ? undefined : parseGraded(text);
}

/**
 * Grades `lesson` as vitest tests and returns the engine's grading. Vitest's own exit code is not
 * the learner's: the caller decides it from the grading, as before.
 */
export async function gradeInVitest(lesson: string, settings: SuiteSettings): Promise<Graded> {
  Object.assign(process.env, settingsEnv(settings));
  const { startVitest } = await import("vitest/node");
  let graded: Graded | undefined;
  const collect = {
    onTestRunEnd(modules: ReadonlyArray<TestModule>) {
      for (const m of modules) graded ??= gradedOf(m);
    },
  };
  const exitCode = process.exitCode;
  const vitest = await startVitest("test", [lessonTestFile(lesson)], {
    project: "grade",
    watch: false,
    reporters: [collect],
    testNamePattern: settings.only ? functionFilter(lesson, settings.only) : undefined,
  });
  await vitest?.close();
  process.exitCode = exitCode;
  if (!graded) throw new Error(`grader bug: vitest ran ${lessonTestFile(lesson)} but it reported no grading`);
  return graded;
}
