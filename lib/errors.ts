import { findLesson } from "./catalog.js";

/**
 * Thrown by every exercise stub until the learner writes the function.
 *
 * The grader recognises it by `name` (not by class identity, so a stub loaded from a temporary
 * folder still counts) and reports the case as "not implemented" rather than as an error.
 */
export class NotImplementedError extends Error {
  readonly lesson: string;
  readonly exercise: string;

  constructor(lesson: string, exercise: string) {
    super(
      `${exercise} is not implemented yet: read the "Exercise" section of ${lessonFileHint(lesson)}, ` +
        `write it in exercises/${lesson}/, then run \`npm run grade ${lesson}\`.`,
    );
    this.name = "NotImplementedError";
    this.lesson = lesson;
    this.exercise = exercise;
  }
}

function lessonFileHint(lesson: string): string {
  const info = findLesson(lesson);
  return info ? `lessons/${info.file}` : `the ${lesson} explainer under lessons/`;
}

/** True for a NotImplementedError from any copy of this module. */
export function isNotImplemented(err: unknown): boolean {
  return err instanceof Error && err.name === "NotImplementedError";
}
