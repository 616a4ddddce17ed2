/**
 * An assignment: the file an instructor writes for one piece of a term, read by both the release
 * (`npm run release -- --assignment a1.json`: the edition gets these lessons' exercises) and the
 * gradebook (`npm run gradebook -- <folder> --assignment a1.json`: only these lessons are graded,
 * scored with these points, the late rule applied from each submission's time).
 *
 * ```json
 * {
 *   "name": "a1",
 *   "lessons": "1-12",                       // or ["lesson-3", "lesson-5"], or [3, 5]
 *   "points": { "lesson-3": 20, "lesson-5/maskedLoss": 4 },
 *   "deadline": "2026-12-15T23:59:00+01:00",
 *   "late": { "penaltyPerDay": 0.1, "maxDaysLate": 3 },
 *   "credit": "share"                        // or "all-or-nothing"
 * }
 * ```
 *
 * Rules (docs/INSTRUCTORS.md states them for instructors):
 * - a lesson is worth `points["lesson-N"]` (default 10), split equally among its graded functions,
 *   except functions given their own points (`"lesson-N/fn"`), which are taken out of the split;
 * - `credit: "share"` (the default) gives a function its points × the share of its cases passed;
 *   `"all-or-nothing"` gives them only when every case passes;
 * - a submission after the deadline loses `penaltyPerDay` of its score per started day late, and
 *   scores 0 after `maxDaysLate` days (no `late`: any late submission scores 0; no `deadline`:
 *   nothing is late).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { findLesson } from "../../lib/catalog.js";

/** Thrown for an assignment file that cannot be used; the message names the file and the field. */
export class AssignmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AssignmentError";
  }
}

const LESSON_RANGE = /^\s*(\d+)\s*-\s*(\d+)\s*$/;

const schema = z
  .object({
    name: z.string().min(1).regex(/^[\w.-]+$/, "letters, digits, '.', '_' and '-' only (it names folders)"),
    lessons: z.union([z.string(), z.array(z.union([z.string(), z.number().int()])).min(1)]),
    points: z.record(z.string(), z.number().nonnegative()).optional(),
    deadline: z
      .string()
      .refine((s) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), "an ISO 8601 time with its offset, e.g. 2026-12-15T23:59:00+01:00")
      .optional(),
    late: z
      .object({
        penaltyPerDay: z.number().min(0).max(1),
        maxDaysLate: z.number().int().nonnegative(),
      })
      .strict()
      .optional(),
    credit: z.enum(["share", "all-or-nothing"]).optional(),
  })
  .strict();

/** An assignment, checked and normalised: lesson ids in course order, the deadline as a Date. */
export interface Assignment {
  name: string;
  /** Lesson ids ("lesson-3"), in course order, without repeats. */
  lessons: string[];
  /** As written: "lesson-N" → the lesson's points, "lesson-N/fn" → one function's points. */
  points: Record<string, number>;
  deadline?: Date;
  late?: { penaltyPerDay: number; maxDaysLate: number };
  credit: "share" | "all-or-nothing";
}

/** Points a lesson is worth when the assignment does not say. */
export const DEFAULT_LESSON_POINTS = 10;

/**
 * Lesson ids of a lesson list as an instructor writes it: "1-12", "3,5,23", ["lesson-3", 5].
 * Throws an AssignmentError naming what is not a lesson of the course.
 */
export function parseLessonList(spec: string | ReadonlyArray<string | number>, where = "lessons"): string[] {
  const items = typeof spec === "string" ? spec.split(",").map((s) => s.trim()).filter((s) => s !== "") : spec.map(String);
  const ids: string[] = [];
  for (const item of items) {
    const range = LESSON_RANGE.exec(item);
    const numbers: string[] = [];
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      if (lo > hi) throw new AssignmentError(`${where}: "${item}" is an empty range`);
      for (let n = lo; n <= hi; n++) numbers.push(String(n));
    } else numbers.push(item);
    for (const n of numbers) {
      const lesson = findLesson(n);
      if (!lesson) throw new AssignmentError(`${where}: "${n}" is not a lesson of the course (lessons 1-34)`);
      if (!ids.includes(lesson.id)) ids.push(lesson.id);
    }
  }
  if (ids.length === 0) throw new AssignmentError(`${where}: names no lesson`);
  return ids.sort((a, b) => findLesson(a)!.number - findLesson(b)!.number);
}

/** Checks an assignment's JSON value (from `file`, for messages). */
export function parseAssignment(value: unknown, file = "assignment"): Assignment {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    throw new AssignmentError(`${file}: ${field}: ${issue.message}`);
  }
  const a = parsed.data;
  const lessons = parseLessonList(a.lessons, `${file}: lessons`);
  const points = a.points ?? {};
  for (const key of Object.keys(points)) {
    const [lessonPart, fn, extra] = key.split("/");
    const lesson = findLesson(lessonPart);
    if (!lesson || extra !== undefined || fn === "") throw new AssignmentError(`${file}: points: "${key}" is neither "lesson-N" nor "lesson-N/functionName"`);
    if (!lessons.includes(lesson.id)) throw new AssignmentError(`${file}: points: "${key}" names ${lesson.id}, which the assignment does not include`);
  }
  return { name: a.name, lessons, points, deadline: a.deadline ? new Date(a.deadline) : undefined, late: a.late, credit: a.credit ?? "share" };
}

/** Reads and checks an assignment file. */
export function loadAssignment(file: string): Assignment {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new AssignmentError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AssignmentError(`${file}: is not JSON (${(err as Error).message})`);
  }
  return parseAssignment(value, file);
}

/**
 * The points each of a lesson's functions is worth: the lesson's points split equally among the
 * functions without points of their own. `functions` are the lesson's graded function names.
 */
export function functionPoints(a: Assignment, lesson: string, functions: readonly string[]): Record<string, number> {
  const own = Object.fromEntries(functions.filter((fn) => `${lesson}/${fn}` in a.points).map((fn) => [fn, a.points[`${lesson}/${fn}`]]));
  const rest = functions.filter((fn) => !(fn in own));
  const lessonPoints = a.points[lesson] ?? DEFAULT_LESSON_POINTS;
  const ownTotal = Object.values(own).reduce((s, p) => s + p, 0);
  const each = rest.length > 0 ? Math.max(0, lessonPoints - ownTotal) / rest.length : 0;
  return Object.fromEntries(functions.map((fn) => [fn, own[fn] ?? each]));
}

/** A function's score: its points × the share of cases passed, or all-or-nothing. */
export function functionScore(a: Assignment, points: number, passed: number, total: number): number {
  if (total === 0) return 0;
  if (a.credit === "all-or-nothing") return passed === total ? points : 0;
  return (points * passed) / total;
}

/**
 * The factor a score is multiplied by for a submission made at `submittedAt`: 1 on time (or with
 * no deadline), 1 − penaltyPerDay × (started days late), 0 past maxDaysLate days or with no late rule.
 */
export function lateFactor(a: Assignment, submittedAt: Date | undefined): { factor: number; daysLate: number } {
  if (!a.deadline || !submittedAt || submittedAt.getTime() <= a.deadline.getTime()) return { factor: 1, daysLate: 0 };
  const daysLate = Math.ceil((submittedAt.getTime() - a.deadline.getTime()) / 86_400_000);
  if (!a.late || daysLate > a.late.maxDaysLate) return { factor: 0, daysLate };
  return { factor: Math.max(0, 1 - a.late.penaltyPerDay * daysLate), daysLate };
}
