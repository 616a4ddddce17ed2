/**
 * Identical submissions: learners whose files of a lesson are byte for byte the same (names and
 * contents), other than the course's own stubs. Listed for the instructor to look at, never scored.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { paths } from "../../grader/engine/paths.js";
import { generateStub } from "../../lib/stubs.js";
import type { Learner } from "./submissions.js";

function folderHash(dir: string, transform: (file: string, text: Buffer) => Buffer = (_, t) => t): string | undefined {
  if (!existsSync(dir)) return undefined;
  const h = createHash("sha256");
  let files = 0;
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (!lstatSync(p).isFile()) continue;
    h.update(`${e}\0`).update(transform(e, readFileSync(p))).update("\0");
    files++;
  }
  return files > 0 ? h.digest("hex") : undefined;
}

/** The hash of the lesson's stubs as the course generates them from its solutions. */
function stubsHash(lesson: string): string | undefined {
  return folderHash(join(paths.solutions, lesson), (file, text) => (file.endsWith(".ts") ? Buffer.from(generateStub(text.toString("utf8"), lesson, file)) : text));
}

/** Groups of two or more learners with identical files for a lesson (the course's stubs left out). */
export function identicalSubmissions(learners: readonly Learner[], lessons: readonly string[]): Array<{ lesson: string; learners: string[] }> {
  const groups: Array<{ lesson: string; learners: string[] }> = [];
  for (const lesson of lessons) {
    const stubs = stubsHash(lesson);
    const byHash = new Map<string, string[]>();
    for (const l of learners) {
      const h = l.lessonsDir ? folderHash(join(l.lessonsDir, lesson)) : undefined;
      if (h && h !== stubs) byHash.set(h, [...(byHash.get(h) ?? []), l.name]);
    }
    for (const names of byHash.values()) if (names.length > 1) groups.push({ lesson, learners: names });
  }
  return groups;
}
