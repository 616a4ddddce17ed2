/**
 * What a student edition says about itself (`.course-edition.json` at its root, written by
 * `npm run release`): which lessons it holds (released), which assignments brought them, which
 * lessons' reference solutions it publishes. The full course has no such file: every lesson is
 * there. Ground floor: the grading commands read it to say "not released yet" instead of
 * "unknown"; lib/ imports nothing from grader/ or tools/.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { courseLang } from "../lang.js";
import { ROOT } from "./paths.js";

export const EDITION_FILE = ".course-edition.json";

/** One assignment an edition was built or extended with. */
export interface EditionAssignment {
  /** The assignment's name ("a1"), or "lessons" for a release by `--lessons`. */
  name: string;
  /** The lesson ids it added (in course order). */
  lessons: string[];
  /** When the release added it (ISO time). */
  addedAt: string;
  /** The course commit it was released from. */
  commit: string;
}

/** What an edition records about itself (`.course-edition.json`). */
export interface EditionInfo {
  version: 1;
  /** Lessons whose solutions ship with the edition. */
  published: string[];
  /**
   * Lessons the edition holds (text, exercises, stubs, expectations), in course order. Absent in
   * editions built before assignments: every lesson.
   */
  released?: string[];
  /** The assignments that released them, oldest first. Absent in editions built before assignments. */
  assignments?: EditionAssignment[];
  /** The course commit it was built (or last extended) from. */
  commit: string;
  builtAt: string;
  /**
   * The answer modules of the lessons not published (grader/engine/answers.ts): withheld (their
   * answer regions replaced) or readable (shipped as they are). Absent in editions built before.
   */
  answerModules?: Array<{ file: string; lesson: string; functions: string[]; shipped: "withheld" | "readable" }>;
  /**
   * SHA-256 of every course file as the release wrote it (exercises/ files included as first
   * written), so that adding the next assignment tells a learner's change from the course's file.
   * Absent in editions built before.
   */
  shipped?: Record<string, string>;
}

/** The edition file of the course at `root`, or undefined in the full course (or when unreadable). */
export function readEditionInfo(root: string = ROOT): EditionInfo | undefined {
  const file = join(root, EDITION_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as EditionInfo;
  } catch {
    return undefined;
  }
}

/**
 * Whether `lesson` (an id, "lesson-23") is held back by the edition at `root`: true only in an
 * edition that lists the lessons it released and does not list this one (a lab of a track,
 * "areal-async", is not a lesson).
 */
export function notReleased(lesson: string, root: string = ROOT): boolean {
  if (!/^lesson-\d+$/.test(lesson)) return false;
  const info = readEditionInfo(root);
  return info?.released !== undefined && !info.released.includes(lesson);
}

/** The one line a learner reads for a lesson the edition does not hold yet. */
export function notReleasedMessage(lesson: string, root: string = ROOT): string {
  const released = readEditionInfo(root)?.released ?? [];
  // In Chinese under COURSE_LANG=zh (lib/lang.ts; the command that prints it decides, in its own process).
  if (courseLang() === "zh") return `${lesson} 在这个版本中尚未发布：你的老师会在之后的作业中加入它（已发布：${released.join(", ") || "无"}）`;
  return `${lesson} is not released yet in this edition: your instructor adds it with a later assignment (released: ${released.join(", ") || "none"})`;
}
