/**
 * Crash-safe file writes: the bytes go to `<path>.tmp`, are flushed to the disk (fsync), and only
 * then renamed over `<path>`, and the folder is fsynced so the rename itself survives a power cut.
 * A process killed at any moment leaves either the old file or the new one, never a mix; at worst
 * a stale `.tmp` that the next save overwrites. MiniMind writes then renames the same way
 * (trainer/trainer_utils.py:74-76, 102-104), without the fsyncs.
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Milliseconds to sleep between writing the temporary file and renaming it (tests use it to kill a save midway). */
function pauseMs(): number {
  const raw = Number(process.env.COURSE_TRAIN_SAVE_PAUSE_MS ?? "0");
  return Number.isFinite(raw) && raw > 0 ? raw : 0;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Writes `bytes` to `path` atomically and durably (see the module comment). */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    let off = 0;
    const writeUpTo = (end: number) => {
      while (off < end) off += writeSync(fd, bytes, off, end - off);
    };
    // With a pause asked for, stop halfway and again before the rename, so a kill can land inside a save.
    const pause = pauseMs();
    if (pause > 0) {
      writeUpTo(bytes.length >> 1);
      sleepSync(pause);
    }
    writeUpTo(bytes.length);
    if (pause > 0) sleepSync(pause);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
