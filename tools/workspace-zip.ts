/**
 * A learner's workspace as a zip (tools/browser/workspace-layout.ts): reading one safely into a
 * clone's exercises/ (`importWorkspace`) and writing one from them (`exportWorkspace`), for the
 * course in a browser tab, whose page imports and exports the same layout.
 *
 * Reading is yauzl's, in memory (zip-slip, links, encrypted entries and zip bombs refused, as the
 * gradebook's reader refuses them), then every entry is checked against the layout before
 * anything is written: one entry outside `exercises/<graded lesson>/<file>.ts` (or the progress
 * side file) refuses the whole zip, and nothing is written.
 * A learner file it replaces is backed up first (tools/workspace.ts backupFile) and replaced
 * atomically (writeFileAtomic): no learner file is ever lost. The entries are checked, and zips
 * written (fflate), by the same code as the page's (workspace-layout.ts).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import yauzl from "yauzl";
import { classifyEntry, entryName, MAX_FILE_BYTES, progressJson, readWorkspaceEntries, refusalMessage, workspaceZip, type WorkspaceEntries, type WorkspaceFiles, type WorkspaceProgress } from "./browser/workspace-layout.js";
import { backupFile, writeFileAtomic } from "./workspace.js";

/** A zip that is not a workspace: its message says every reason, one a line. */
export class WorkspaceZipRefused extends Error {}

/** Limits on a workspace zip: entries and unpacked bytes (a zip bomb is refused, not unpacked). */
const LIMITS = { entries: 2000, bytes: 64 * 1024 * 1024 };

/** The entry's Unix mode, when a Unix zip recorded one (0 otherwise). */
const unixMode = (e: yauzl.Entry) => ((e.versionMadeBy >> 8) === 3 ? e.externalFileAttributes >>> 16 : 0);

async function readAll(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the workspace zip `zip` in memory with yauzl (the central directory, sizes checked
 * against what each entry records): its learner files (lesson → file → text) and its side file.
 * `graded` is the course's graded lessons. Throws WorkspaceZipRefused naming every entry that is
 * not `exercises/<graded lesson>/<file>.ts` (nor the side file): a name yauzl finds unsafe
 * (absolute, climbing out, a backslash) or with a NUL, a symbolic link, an encrypted entry; and an
 * archive that is not a zip or is past the limits.
 */
export async function readWorkspaceZip(zip: string, graded: readonly string[]): Promise<Omit<WorkspaceEntries, "refused">> {
  let archive: yauzl.ZipFile;
  try {
    archive = await yauzl.openPromise(zip, { decodeStrings: false, validateEntrySizes: true });
  } catch (err) {
    throw new WorkspaceZipRefused(`${zip}: not a zip archive (${(err as Error).message})`);
  }
  const refused: string[] = [];
  const entries: Record<string, Uint8Array> = {};
  try {
    if (archive.entryCount > LIMITS.entries) throw new WorkspaceZipRefused(`${zip}: more than ${LIMITS.entries} entries`);
    let total = 0;
    for await (const entry of archive.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const unsafe = name.includes("\0") ? "a NUL in its name" : yauzl.validateFileName(name);
      if (unsafe) refused.push(`${name} (${unsafe})`);
      else if ((unixMode(entry) & 0o170000) === 0o120000) refused.push(`${name} (a symbolic link)`);
      else if (entry.isEncrypted()) refused.push(`${name} (encrypted)`);
      else if (!entry.canDecodeFileData()) refused.push(`${name} (compression method ${entry.compressionMethod}: zip it again with deflate)`);
      else if (entry.uncompressedSize > MAX_FILE_BYTES) refused.push(`${name} (larger than ${MAX_FILE_BYTES >> 20} MiB)`);
      else if (name.endsWith("/")) entries[name] = new Uint8Array();
      else {
        total += entry.uncompressedSize;
        if (total > LIMITS.bytes) throw new WorkspaceZipRefused(`${zip}: unpacks to more than ${LIMITS.bytes >> 20} MiB`);
        try {
          entries[name] = await readAll(archive, entry);
        } catch (err) {
          throw new WorkspaceZipRefused(`${zip}: ${name}: ${(err as Error).message}`);
        }
      }
    }
  } finally {
    archive.close();
  }
  const read = readWorkspaceEntries(entries, graded);
  refused.push(...read.refused);
  if (refused.length > 0) throw new WorkspaceZipRefused(refusalMessage(zip, refused));
  return { files: read.files, progress: read.progress };
}

export interface ImportReport {
  /** Files that did not exist, written. */
  created: string[];
  /** Files replaced, each with the backup of what it held. */
  replaced: Array<{ file: string; backup: string }>;
  /** Files whose text was already the zip's. */
  unchanged: string[];
  progress?: WorkspaceProgress;
}

/**
 * Imports the workspace zip `zip` into the exercises folder `dir` (exercises/ or
 * COURSE_EXERCISES_DIR): every learner file written atomically, a file it replaces backed up
 * first. Refuses (WorkspaceZipRefused, nothing written) a zip that is not a workspace, and a
 * target that is a link or not a regular file. The side file's grades are returned, never written:
 * the course's progress file is the Node grader's alone.
 */
export async function importWorkspace(zip: string, dir: string, graded: readonly string[]): Promise<ImportReport> {
  const read = await readWorkspaceZip(zip, graded);
  const targets = Object.entries(read.files).flatMap(([lesson, files]) => Object.entries(files).map(([file, text]) => ({ lesson, path: join(dir, lesson, file), text })));
  const blocked: string[] = [];
  for (const t of targets) {
    for (const p of [join(dir, t.lesson), t.path]) {
      if (!existsSync(p) && !isLink(p)) continue;
      const st = lstatSync(p);
      const ok = p === t.path ? st.isFile() : st.isDirectory();
      if (!ok && !blocked.includes(p)) blocked.push(p);
    }
  }
  if (blocked.length > 0) throw new WorkspaceZipRefused(`not imported: ${blocked.join(", ")} ${blocked.length === 1 ? "is" : "are"} a link or not a regular file/folder; nothing was written`);
  const report: ImportReport = { created: [], replaced: [], unchanged: [], progress: read.progress };
  for (const t of targets) {
    if (!existsSync(t.path)) {
      writeFileAtomic(t.path, t.text);
      report.created.push(t.path);
    } else if (readFileSync(t.path, "utf8") === t.text) report.unchanged.push(t.path);
    else {
      const backup = backupFile(t.path);
      writeFileAtomic(t.path, t.text);
      report.replaced.push({ file: t.path, backup });
    }
  }
  return report;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The learner files of `dir`'s graded lessons (lesson → file → text), as an export holds them. */
export function workspaceFiles(dir: string, graded: readonly string[]): WorkspaceFiles {
  const out: WorkspaceFiles = {};
  for (const lesson of graded) {
    const folder = join(dir, lesson);
    if (!existsSync(folder) || !lstatSync(folder).isDirectory()) continue;
    const names = readdirSync(folder).filter((f) => classifyEntry(entryName(lesson, f), graded).kind === "file" && lstatSync(join(folder, f)).isFile());
    if (names.length > 0) out[lesson] = Object.fromEntries(names.sort().map((f) => [f, readFileSync(join(folder, f), "utf8")]));
  }
  return out;
}

/**
 * Writes the learner files of `dir` (exercises/ or COURSE_EXERCISES_DIR) to the new zip `zip`, for
 * import into the page; refuses to replace an existing file. Returns the files written, by lesson.
 */
export function exportWorkspace(dir: string, zip: string, graded: readonly string[]): WorkspaceFiles {
  if (existsSync(zip) || isLink(zip)) throw new WorkspaceZipRefused(`${zip} exists: choose a new file name (an export never replaces a file)`);
  const files = workspaceFiles(dir, graded);
  writeFileSync(zip, workspaceZip(files, progressJson("clone", {})), { flag: "wx" });
  return files;
}
