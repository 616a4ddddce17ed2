/**
 * lib/resolver.ts's rule, in the training worker: each function a run needs is the learner's when
 * its lesson passes in this browser (the workspace's IndexedDB record, tools/browser/store.ts), else
 * the reference when the build published it, else the resolver's own LessonNotFinishedError
 * ("finish lesson N first"), every missing function named in one LessonsNotFinishedError. The
 * choices come back as the resolver's FunctionChoice, for its "whose functions" table.
 *
 * Align with: lib/resolver.ts (resolveFunctions: the order learner → reference → error, one error for all).
 */
import { LessonNotFinishedError, LessonsNotFinishedError, type FunctionChoice } from "../../lib/resolver.js";

/** A lesson's modules as the worker loaded them: the learner's exports (or why there are none) and the published reference's, if any. */
export interface LoadedLesson {
  learner: Record<string, unknown> | string;
  reference?: Record<string, unknown>;
}

/**
 * The functions of `homes` (name → lesson) out of `lessons`, and whose each is. Throws the
 * resolver's LessonNotFinishedError (one missing) or LessonsNotFinishedError (several).
 */
export function chooseFunctions<T extends object>(homes: { [K in keyof T]: string }, lessons: Record<string, LoadedLesson>): { fns: T; choices: FunctionChoice[] } {
  const fns: Record<string, unknown> = {};
  const choices: FunctionChoice[] = [];
  const missing: LessonNotFinishedError[] = [];
  for (const [name, lesson] of Object.entries(homes) as Array<[string, string]>) {
    const loaded = lessons[lesson] ?? { learner: "not passed in this browser yet" };
    const mine = typeof loaded.learner === "string" ? undefined : loaded.learner[name];
    const why = typeof loaded.learner === "string" ? loaded.learner : typeof mine === "function" ? "passes in this browser" : `passing, but its files export no function ${name}`;
    const reference = loaded.reference?.[name];
    if (typeof mine === "function") {
      fns[name] = mine;
      choices.push({ lesson, name, source: "exercises", why });
    } else if (typeof reference === "function") {
      fns[name] = reference;
      choices.push({ lesson, name, source: "solutions", why });
    } else missing.push(new LessonNotFinishedError(lesson, name, why));
  }
  if (missing.length === 1) throw missing[0];
  if (missing.length > 1) throw new LessonsNotFinishedError(missing);
  return { fns: fns as T, choices };
}

/** The lessons to finish first and the resolver's words, when `err` is chooseFunctions' LessonNotFinishedError; else undefined. */
export function notFinished(err: unknown): { message: string; lessons: string[] } | undefined {
  if (!(err instanceof LessonNotFinishedError)) return undefined;
  const lessons = err instanceof LessonsNotFinishedError ? [...new Set(err.missing.map((m) => m.lesson))] : [err.lesson];
  return { message: err.message, lessons };
}
