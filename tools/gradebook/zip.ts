/**
 * Reads a learner's .zip with yauzl (a maintained reader that follows the zip spec: the central
 * directory, zip64, sizes checked against what each entry records): regular files and folders
 * only. An entry whose name is absolute, climbs out (`..`) or holds a backslash or NUL is refused
 * and named (zip-slip; yauzl's `validateFileName` plus NUL), a symbolic link is skipped and named,
 * and the archive is refused past fixed limits on entries and unpacked size (a zip bomb), or when
 * an entry is encrypted or compressed with a method other than stored or deflate.
 */
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import yauzl from "yauzl";

/** Limits on one archive. */
export const ZIP_LIMITS = { entries: 5000, bytes: 200 * 1024 * 1024, archiveBytes: 200 * 1024 * 1024 };

export interface Unzipped {
  /** Files written, as named in the archive. */
  files: string[];
  /** Symbolic links left out. */
  links: string[];
  /** Entries refused (zip-slip), with why. */
  refused: string[];
  /** The newest modification time an entry records (its DOS time read as UTC, or its extended time), if any. */
  newest?: Date;
}

/** Why an entry's name may not be written, or undefined when it may. */
function unsafeName(name: string): string | undefined {
  if (name.includes("\0")) return "a NUL in its name";
  const why = yauzl.validateFileName(name);
  return why ?? undefined;
}

/** The entry's Unix mode, when a Unix zip recorded one (0 otherwise). */
const unixMode = (e: yauzl.Entry) => ((e.versionMadeBy >> 8) === 3 ? e.externalFileAttributes >>> 16 : 0);

async function readAll(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Unpacks `archive` into the (empty) folder `dest`, entry by entry. Rejects with an Error whose
 * message is a one-line reason for an archive it cannot read ("not a zip archive …", "… is
 * encrypted", "unpacks to more than 200 MiB"); what it wrote before stays in `dest`.
 */
export async function unzipInto(archive: string, dest: string): Promise<Unzipped> {
  if (statSync(archive).size > ZIP_LIMITS.archiveBytes) throw new Error(`larger than ${ZIP_LIMITS.archiveBytes >> 20} MiB`);
  let zip: yauzl.ZipFile;
  try {
    // Names are decoded and checked here, entry by entry, so that one bad name is refused alone.
    zip = await yauzl.openPromise(archive, { decodeStrings: false, validateEntrySizes: true });
  } catch (err) {
    throw new Error(`not a zip archive (${(err as Error).message})`);
  }
  try {
    if (zip.entryCount > ZIP_LIMITS.entries) throw new Error(`more than ${ZIP_LIMITS.entries} entries`);
    const out: Unzipped = { files: [], links: [], refused: [] };
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const unsafe = unsafeName(name);
      if (unsafe) {
        out.refused.push(`${name} (${unsafe})`);
        continue;
      }
      if ((unixMode(entry) & 0o170000) === 0o120000) {
        out.links.push(name);
        continue;
      }
      const target = join(dest, normalize(name));
      if (!target.startsWith(dest + sep) && target !== dest) {
        out.refused.push(`${name} (outside the archive's folder)`);
        continue;
      }
      if (name.endsWith("/")) {
        mkdirSync(target, { recursive: true });
        continue;
      }
      if (entry.isEncrypted()) throw new Error(`${name} is encrypted`);
      if (!entry.canDecodeFileData()) throw new Error(`${name} uses compression method ${entry.compressionMethod}: zip it again with deflate`);
      total += entry.uncompressedSize;
      if (total > ZIP_LIMITS.bytes) throw new Error(`unpacks to more than ${ZIP_LIMITS.bytes >> 20} MiB`);
      let data: Buffer;
      try {
        data = await readAll(zip, entry);
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`);
      }
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data, { flag: "wx" });
      if (entry.lastModFileDate !== 0) {
        const when = entry.getLastModDate({ timezone: "UTC" });
        utimesSync(target, when, when);
        if (!out.newest || when > out.newest) out.newest = when;
      }
      out.files.push(name);
    }
    return out;
  } finally {
    zip.close();
  }
}
