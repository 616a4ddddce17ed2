/**
 * The layout of a workspace zip, shared by the page (workspace-page.ts) and `npm run workspace`
 * (tools/workspace-zip.ts), so that each reads what the other writes: one entry a learner file,
 * `exercises/<lesson>/<file>.ts` (what a clone holds, so unzipping at a clone's root and running
 * `npm run grade <lesson>` grades them), and beside them `course-workspace.json`, the page's
 * progress (its last grade of each lesson). Nothing else may be in one. No Node imports: the page
 * bundles this. Zips are written with fflate (zipSync), in the page and in Node alike.
 */
import { zipSync } from "fflate";
import type { GradeRecord } from "./store.js";

/** The progress side file's name in a workspace zip (at its root). */
export const PROGRESS_ENTRY = "course-workspace.json";

/** The `format` of the side file. */
export const WORKSPACE_FORMAT = "minimind-course-workspace";

/** A file name a lesson folder may hold: a plain .ts name (no folder, not hidden). */
const FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.ts$/;

/** The most bytes one learner file may have in a workspace zip. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** The side file: where the zip came from and the page's last grade of each lesson. */
export interface WorkspaceProgress {
  format: typeof WORKSPACE_FORMAT;
  version: 1;
  /** "page" (the course in a browser tab) or "clone" (`npm run workspace -- export`). */
  source: "page" | "clone";
  exportedAt: string;
  /** Lesson → the page's last grade of it (empty from a clone: its grades are the Node grader's). */
  grades: Record<string, GradeRecord>;
}

/** The zip entry of a lesson's file: `exercises/<lesson>/<file>`. */
export function entryName(lesson: string, file: string): string {
  return `exercises/${lesson}/${file}`;
}

/** What a zip entry's name is: a lesson's file, the side file, a folder to skip, or refused (with why). */
export type EntryKind = { kind: "file"; lesson: string; file: string } | { kind: "progress" } | { kind: "folder" } | { kind: "refused"; why: string };

/**
 * Classifies the entry `name` of a workspace zip; `graded` is the course's graded lessons. A file
 * is accepted only as `exercises/<graded lesson>/<plain name>.ts`; folders are accepted only on
 * the way to one (`exercises/`, `exercises/<lesson>/`); anything else is refused, saying why.
 */
export function classifyEntry(name: string, graded: readonly string[]): EntryKind {
  if (name === PROGRESS_ENTRY) return { kind: "progress" };
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return { kind: "refused", why: "an absolute path" };
  if (name.includes("\\") || name.includes("\0")) return { kind: "refused", why: "a backslash or NUL in its name" };
  const parts = name.split("/");
  if (parts.some((p) => p === ".." || p === ".")) return { kind: "refused", why: "a path that climbs out (..)" };
  if (parts[0] !== "exercises") return { kind: "refused", why: "outside exercises/" };
  if (name === "exercises/" || (parts.length === 3 && parts[2] === "" && graded.includes(parts[1]))) return { kind: "folder" };
  if (parts.length !== 3) return { kind: "refused", why: "not a file directly in exercises/<lesson>/" };
  const [, lesson, file] = parts;
  if (!graded.includes(lesson)) return { kind: "refused", why: `${lesson} is not a graded lesson of this course` };
  if (!FILE_NAME.test(file)) return { kind: "refused", why: "not a .ts file (a lesson folder holds only .ts files)" };
  return { kind: "file", lesson, file };
}

/** The side file for `grades` (lesson → last grade). */
export function progressJson(source: WorkspaceProgress["source"], grades: Record<string, GradeRecord>, now: Date = new Date()): string {
  const progress: WorkspaceProgress = { format: WORKSPACE_FORMAT, version: 1, source, exportedAt: now.toISOString(), grades };
  return `${JSON.stringify(progress, null, 2)}\n`;
}

const isGrade = (g: unknown): g is GradeRecord => {
  const r = g as GradeRecord;
  return typeof r === "object" && r !== null && Number.isInteger(r.passed) && Number.isInteger(r.total) && typeof r.filesHash === "string" && typeof r.at === "string";
};

/** The side file's contents, checked; throws an Error saying what is wrong with it. */
export function parseProgress(text: string): WorkspaceProgress {
  let p: WorkspaceProgress;
  try {
    p = JSON.parse(text) as WorkspaceProgress;
  } catch {
    throw new Error(`${PROGRESS_ENTRY} is not JSON`);
  }
  if (typeof p !== "object" || p === null || p.format !== WORKSPACE_FORMAT || p.version !== 1) throw new Error(`${PROGRESS_ENTRY} is not a course workspace's progress (format ${WORKSPACE_FORMAT}, version 1)`);
  if (typeof p.grades !== "object" || p.grades === null || !Object.values(p.grades).every(isGrade)) throw new Error(`${PROGRESS_ENTRY}: its grades are not {passed, total, filesHash, at} records`);
  return p;
}

/** Lesson → file name → text. */
export type WorkspaceFiles = Record<string, Record<string, string>>;

/** A workspace zip's bytes: every file at `exercises/<lesson>/<file>`, and the side file `progress`. */
export function workspaceZip(files: WorkspaceFiles, progress: string): Uint8Array {
  const enc = new TextEncoder();
  const entries: Record<string, Uint8Array> = { [PROGRESS_ENTRY]: enc.encode(progress) };
  for (const [lesson, fs] of Object.entries(files)) for (const [f, text] of Object.entries(fs)) entries[entryName(lesson, f)] = enc.encode(text);
  return zipSync(entries, { level: 6 });
}

/** What a workspace zip holds, read and checked. */
export interface WorkspaceEntries {
  files: WorkspaceFiles;
  /** The side file, when the zip has one. */
  progress?: WorkspaceProgress;
  /** Each entry that is not a workspace's, with why ("README.md (outside exercises/)"); the caller refuses the zip when there is one. */
  refused: string[];
}

/**
 * Reads a zip's entries (name → bytes) as a workspace: each classified (classifyEntry), a file
 * over MAX_FILE_BYTES or not UTF-8 refused, the side file parsed. `graded` is the course's graded lessons.
 */
export function readWorkspaceEntries(entries: Record<string, Uint8Array>, graded: readonly string[]): WorkspaceEntries {
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const out: WorkspaceEntries = { files: {}, refused: [] };
  for (const [name, bytes] of Object.entries(entries)) {
    const kind = classifyEntry(name, graded);
    if (kind.kind === "refused") {
      out.refused.push(`${name} (${kind.why})`);
      continue;
    }
    if (kind.kind === "folder") continue;
    if (bytes.length > MAX_FILE_BYTES) {
      out.refused.push(`${name} (larger than ${MAX_FILE_BYTES >> 20} MiB)`);
      continue;
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      out.refused.push(`${name} (not UTF-8 text)`);
      continue;
    }
    if (kind.kind === "progress") {
      try {
        out.progress = parseProgress(text);
      } catch (err) {
        out.refused.push(`${name} (${(err as Error).message})`);
      }
    } else (out.files[kind.lesson] ??= {})[kind.file] = text;
  }
  return out;
}

/** The message that refuses a zip for `refused` (readWorkspaceEntries), naming `what` (the zip). */
export function refusalMessage(what: string, refused: readonly string[]): string {
  return `${what} is not a course workspace: a workspace zip holds only exercises/<lesson>/<file>.ts (a graded lesson's files) and ${PROGRESS_ENTRY}, and ${refused.length === 1 ? "this entry is" : "these entries are"} not:\n${refused.map((r) => `  ${r}`).join("\n")}`;
}
