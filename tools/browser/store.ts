/**
 * The learner's files and progress in the browser, kept in IndexedDB (through `idb`) so that no
 * work is lost on reload: per lesson, the files last saved (file name → text) and the last grade
 * (cases passed of all, the hash of the files graded, when). The workspace page saves here as the
 * learner types; the training page asks `passingLessons()` which functions are the learner's.
 *
 * Self-study only: the page writes these records and the learner can change them (as they can
 * change a clone's progress file); they are for resuming work, not proof of it.
 */
import { openDB, type DBSchema, type IDBPDatabase } from "idb";

/** A lesson's last grade in the page. */
export interface GradeRecord {
  /** Cases passed. */
  passed: number;
  /** Cases graded. */
  total: number;
  /** `filesHash` of the files that were graded. */
  filesHash: string;
  /** When (an ISO 8601 time). */
  at: string;
}

interface CourseDB extends DBSchema {
  files: { key: string; value: Record<string, string> };
  grades: { key: string; value: GradeRecord };
  /** Lesson → function → hint tiers seen (as the progress file's `hints`). */
  hints: { key: string; value: Record<string, number> };
  /** `<lesson>@<ISO time>` → the files an import replaced. */
  backups: { key: string; value: Record<string, string> };
}

/** The database's name (one per origin: a site and its workspace pages share it). */
export const STORE_NAME = "minimind-course";

let db: Promise<IDBPDatabase<CourseDB>> | undefined;
const open = () =>
  (db ??= openDB<CourseDB>(STORE_NAME, 1, {
    upgrade(d) {
      d.createObjectStore("files");
      d.createObjectStore("grades");
      d.createObjectStore("hints");
      d.createObjectStore("backups");
    },
  }));

/** Saves `files` (file name → text) as the learner's current files of `lesson`, replacing what was saved. */
export async function saveFiles(lesson: string, files: Record<string, string>): Promise<void> {
  await (await open()).put("files", { ...files }, lesson);
}

/** The learner's saved files of `lesson`, or undefined when nothing was saved. */
export async function loadFiles(lesson: string): Promise<Record<string, string> | undefined> {
  return (await open()).get("files", lesson);
}

/** Records `r` as the last grade of `lesson` (replacing the one before). */
export async function recordGrade(lesson: string, r: GradeRecord): Promise<void> {
  await (await open()).put("grades", { passed: r.passed, total: r.total, filesHash: r.filesHash, at: r.at }, lesson);
}

/** The last grade of `lesson`, or undefined when it was never graded here. */
export async function gradeOf(lesson: string): Promise<GradeRecord | undefined> {
  return (await open()).get("grades", lesson);
}

/** Every lesson with saved files → its files. */
export async function allFiles(): Promise<Record<string, Record<string, string>>> {
  const d = await open();
  const keys = await d.getAllKeys("files");
  const values = await d.getAll("files");
  return Object.fromEntries(keys.map((k, i) => [k, values[i]]));
}

/** Every lesson graded here → its last grade. */
export async function allGrades(): Promise<Record<string, GradeRecord>> {
  const d = await open();
  const keys = await d.getAllKeys("grades");
  const values = await d.getAll("grades");
  return Object.fromEntries(keys.map((k, i) => [k, values[i]]));
}

/** Function → hint tiers seen, for `lesson` (empty when none). */
export async function hintsSeen(lesson: string): Promise<Record<string, number>> {
  return (await (await open()).get("hints", lesson)) ?? {};
}

/** Records that `tiers` hint tiers of `lesson`'s function `name` have been seen. */
export async function recordHintsSeen(lesson: string, name: string, tiers: number): Promise<void> {
  await (await open()).put("hints", { ...(await hintsSeen(lesson)), [name]: tiers }, lesson);
}

/** Keeps a copy of `files`, the files of `lesson` an import is about to replace; returns its key. */
export async function backupFiles(lesson: string, files: Record<string, string>, now: Date = new Date()): Promise<string> {
  const key = `${lesson}@${now.toISOString()}`;
  await (await open()).put("backups", { ...files }, key);
  return key;
}

/**
 * The lessons the learner has passed, each with its files: those whose last grade passed every
 * case (passed === total > 0) and whose saved files still hash to that grade's `filesHash` (files
 * edited since are not passing until graded again).
 */
export async function passingLessons(): Promise<Record<string, Record<string, string>>> {
  const [files, grades] = await Promise.all([allFiles(), allGrades()]);
  const out: Record<string, Record<string, string>> = {};
  for (const [lesson, g] of Object.entries(grades)) {
    const mine = files[lesson];
    if (mine && g.total > 0 && g.passed === g.total && (await filesHash(mine)) === g.filesHash) out[lesson] = mine;
  }
  return out;
}

/**
 * SHA-256 (hex, crypto.subtle) of `files`: over the JSON of its [name, text] pairs sorted by name,
 * so the same files give the same hash whatever their order (and in Node, which has crypto.subtle too).
 */
export async function filesHash(files: Record<string, string>): Promise<string> {
  const sorted = Object.keys(files)
    .sort()
    .map((name) => [name, files[name]]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(sorted)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
