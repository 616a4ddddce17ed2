/**
 * Verifies a student edition against this repository: each lesson's frozen expectations were made
 * from this reference and grader (hashes) and equal a fresh computation, no line of an
 * unpublished solution appears anywhere in the edition, and no answer module (grader/engine/
 * answers.ts) still holds an answer region of an unpublished lesson, and its README, lessons and stubs
 * name only files it ships and scripts its package.json has (tools/release/text.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { initBackend } from "../../lib/backend.js";
import { freezeLesson } from "../../grader/engine/freeze.js";
import { parseFrozen, referenceHash, toJson } from "../../grader/engine/frozen.js";
import { EDITION_FILE, findLeaks, lessonOfFile, type EditionInfo } from "./edition.js";
import { answerRegionLeaks } from "./withhold.js";
import { editionTextProblems } from "./text.js";

/**
 * Files of lessons an edition does not release (its `released` list) that are there anyway: their
 * text, figures, grading, stubs, expectations or solutions. An edition without the list holds every lesson.
 */
export function heldBackProblems(dir: string, info: EditionInfo): string[] {
  if (!info.released) return [];
  const problems: string[] = [];
  for (const top of ["lessons", "grader", "stubs", "solutions", "exercises"]) {
    const root = join(dir, top);
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { recursive: true }).map(String).sort()) {
      const file = `${top}/${entry.split("\\").join("/")}`;
      if (!statSync(join(dir, file)).isFile()) continue;
      const lesson = lessonOfFile(file);
      if (lesson && !info.released.includes(lesson)) problems.push(`${file} belongs to ${lesson}, which the edition does not release`);
    }
  }
  return problems;
}

export async function checkEdition(dir: string): Promise<string[]> {
  const infoFile = join(dir, EDITION_FILE);
  if (!existsSync(infoFile)) return [`${dir} is not a student edition (no ${EDITION_FILE})`];
  const info = JSON.parse(readFileSync(infoFile, "utf8")) as EditionInfo;
  const problems: string[] = [];
  const backend = await initBackend("cpu");
  const expectedDir = join(dir, "grader", "expected");
  for (const file of existsSync(expectedDir) ? readdirSync(expectedDir).filter((f) => f.endsWith(".json")).sort() : []) {
    const frozen = parseFrozen(readFileSync(join(expectedDir, file), "utf8"));
    const lesson = frozen.lesson;
    if (frozen.referenceHash !== referenceHash(lesson)) {
      problems.push(`${lesson}: frozen from a different reference or grader than this repository's (hash ${frozen.referenceHash}, here ${referenceHash(lesson)})`);
      continue;
    }
    const fresh = await freezeLesson(lesson, backend);
    fresh.cases.forEach((c, i) => {
      const old = frozen.cases[i];
      if (!old || toJson(old) !== toJson(c)) problems.push(`${lesson}: case "${c.plan.exercise} · ${c.plan.case}" differs from a fresh computation`);
    });
    if (frozen.cases.length !== fresh.cases.length) problems.push(`${lesson}: ${frozen.cases.length} frozen cases, ${fresh.cases.length} planned now`);
  }
  problems.push(...findLeaks(dir, info.published).map((l) => `leak: ${l}`));
  problems.push(...answerRegionLeaks(dir, info.published).map((l) => `answer module: ${l}`));
  problems.push(...editionTextProblems(dir).map((l) => `text: ${l}`));
  problems.push(...heldBackProblems(dir, info).map((l) => `not released: ${l}`));
  return problems;
}
