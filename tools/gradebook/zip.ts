/**
 * Reads a learner's .zip (no zip library ships with the course, so a small reader over node:zlib):
 * regular files and folders only. An entry whose name is absolute, climbs out (`..`) or holds a
 * backslash or NUL is refused (zip-slip), a symbolic link is skipped and named, and the archive is
 * refused past fixed limits on entries and unpacked size (a zip bomb). Stored and deflated entries;
 * no zip64, no encryption (each refused with a one-line reason).
 */
import { closeSync, mkdirSync, openSync, readSync, fstatSync, writeFileSync, utimesSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { inflateRawSync } from "node:zlib";

/** Limits on one archive. */
export const ZIP_LIMITS = { entries: 5000, bytes: 200 * 1024 * 1024, archiveBytes: 200 * 1024 * 1024 };

export interface Unzipped {
  /** Files written, as named in the archive. */
  files: string[];
  /** Symbolic links left out. */
  links: string[];
  /** Entries refused (zip-slip), with why. */
  refused: string[];
  /** The newest modification time an entry records (its DOS time, read as UTC), if any. */
  newest?: Date;
}

function readAt(fd: number, pos: number, len: number): Buffer {
  const b = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const n = readSync(fd, b, got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return b.subarray(0, got);
}

function dosTime(date: number, time: number): Date | undefined {
  if (date === 0) return undefined;
  return new Date(Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2));
}

/** Why an entry's name may not be written, or undefined when it may. */
function unsafeName(name: string): string | undefined {
  if (name.includes("\\") || name.includes("\0")) return "a backslash or NUL in its name";
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return "an absolute path";
  if (name.split("/").includes("..")) return "a path that climbs out of the archive (..)";
  return undefined;
}

/** Unpacks `archive` into the (empty) folder `dest`. Throws an Error with a one-line reason for an archive it cannot read. */
export function unzipInto(archive: string, dest: string): Unzipped {
  const fd = openSync(archive, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > ZIP_LIMITS.archiveBytes) throw new Error(`larger than ${ZIP_LIMITS.archiveBytes >> 20} MiB`);
    // The end-of-central-directory record: in the last 22 + 65535 bytes.
    const tailLen = Math.min(size, 22 + 65535);
    const tail = readAt(fd, size - tailLen, tailLen);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    if (eocd < 0) throw new Error("not a zip archive (no end-of-central-directory record)");
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff) throw new Error("a zip64 archive, which the gradebook does not read: zip it again without zip64");
    if (count > ZIP_LIMITS.entries) throw new Error(`more than ${ZIP_LIMITS.entries} entries`);
    const cd = readAt(fd, cdOffset, cdSize);
    const out: Unzipped = { files: [], links: [], refused: [] };
    let total = 0;
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw new Error("a damaged central directory");
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      const time = cd.readUInt16LE(p + 12);
      const date = cd.readUInt16LE(p + 14);
      const csize = cd.readUInt32LE(p + 20);
      const usize = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const madeBy = cd.readUInt16LE(p + 4) >> 8;
      const external = cd.readUInt32LE(p + 38);
      const local = cd.readUInt32LE(p + 42);
      const name = cd.subarray(p + 46, p + 46 + nameLen).toString(flags & 0x800 ? "utf8" : "latin1");
      p += 46 + nameLen + extraLen + commentLen;
      const unsafe = unsafeName(name);
      if (unsafe) {
        out.refused.push(`${name} (${unsafe})`);
        continue;
      }
      const mode = madeBy === 3 ? external >>> 16 : 0;
      if ((mode & 0o170000) === 0o120000) {
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
      if (flags & 1) throw new Error(`${name} is encrypted`);
      if (method !== 0 && method !== 8) throw new Error(`${name} uses compression method ${method}: zip it again with deflate`);
      total += usize;
      if (total > ZIP_LIMITS.bytes) throw new Error(`unpacks to more than ${ZIP_LIMITS.bytes >> 20} MiB`);
      const lh = readAt(fd, local, 30);
      if (lh.length < 30 || lh.readUInt32LE(0) !== 0x04034b50) throw new Error(`${name}: a damaged local header`);
      const start = local + 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28);
      const raw = readAt(fd, start, csize);
      const data = method === 0 ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(usize, 1) });
      if (data.length !== usize) throw new Error(`${name}: unpacked to ${data.length} bytes, not the ${usize} the archive records`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, data, { flag: "wx" });
      const when = dosTime(date, time);
      if (when) {
        utimesSync(target, when, when);
        if (!out.newest || when > out.newest) out.newest = when;
      }
      out.files.push(name);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
