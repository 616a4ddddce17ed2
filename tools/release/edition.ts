/**
 * A student edition: the course as an instructor hands it to a class, without the answers. It is
 * the repository's tracked files minus solutions/ (except the lessons published), the mutants'
 * source, the PyTorch parity scripts and the authors' tools and tests; in their place, frozen
 * expectations (grader/expected/), the pristine stubs (stubs/, for `npm run reset`) and a
 * recording of the functions graders borrow (grader/engine/deps.ts). The same grader runs in
 * both: grader/engine/isolate.ts reads the frozen expectations when a lesson's reference is absent.
 *
 * Course modules that compute an unpublished lesson's graded function (their `@answers` tags,
 * grader/engine/answers.ts) ship with their answer regions replaced (tools/release/withhold.ts:
 * the runtime then uses the learner's function through lib/resolver.ts, or says "finish lesson N
 * first"); one without regions ships readable, and `BuildReport.answerModules` and the edition's
 * `.course-edition.json` name it so that the release can warn.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { initBackend } from "../../lib/backend.js";
import { freezeLesson } from "../../grader/engine/freeze.js";
import { frozenPath, serializeFrozen } from "../../grader/engine/frozen.js";
import { ROOT, casesFile, gradedLessons, paths } from "../../grader/engine/paths.js";
import { recordCalls, replaySource } from "../../grader/engine/replay.js";
import { deps } from "../../grader/engine/deps.js";
import { generateStub } from "../../lib/stubs.js";
import { planAnswerModules, taggedFiles, type EditionAnswerModule } from "./withhold.js";

/** What an edition records about itself (`.course-edition.json`). */
export interface EditionInfo {
  version: 1;
  /** Lessons whose solutions ship with the edition. */
  published: string[];
  /** The course commit it was built from. */
  commit: string;
  builtAt: string;
  /**
   * The answer modules of the lessons not published (grader/engine/answers.ts): withheld (their
   * answer regions replaced) or readable (shipped as they are). Absent in editions built before.
   */
  answerModules?: EditionAnswerModule[];
}

export const EDITION_FILE = ".course-edition.json";

/** Paths (relative to the root) that never ship in an edition, whatever is published. */
const NEVER = [/^grader\/lesson-\d+\/(mutants|variants|parity)(-[\w-]+)?\.(ts|py)$/, /^tools\/(parity|bench|release|gradebook)\//, /^tools\/selfcheck-types\.ts$/, /^test\//, /^docs\/AUTHORING\.md$/];

/** The functions graders borrow from other references: replaced in an edition by their recording. */
const DEPS = "grader/engine/deps.ts";

function tracked(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)));
}

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** The lessons `--publish` names ("all", or ids), checked against the lessons with solutions. */
export function publishedLessons(spec: string | undefined): string[] {
  const graded = gradedLessons();
  if (!spec) return [];
  if (spec === "all") return graded;
  const asked = spec.split(",").map((s) => s.trim()).filter((s) => s !== "").map((s) => (/^\d+$/.test(s) ? `lesson-${s}` : s));
  const unknown = asked.filter((l) => !graded.includes(l));
  if (unknown.length > 0) throw new Error(`--publish names lessons without graded exercises: ${unknown.join(", ")} (graded: ${graded.join(", ")})`);
  return asked;
}

function shipped(file: string, published: readonly string[]): boolean {
  if (NEVER.some((r) => r.test(file))) return false;
  const m = /^solutions\/(lesson-\d+)\//.exec(file);
  if (m) return published.includes(m[1]);
  return file !== DEPS;
}

function write(out: string, file: string, text: string | Buffer): void {
  mkdirSync(dirname(join(out, file)), { recursive: true });
  writeFileSync(join(out, file), text);
}

/** package.json for learners: the authors' commands go, `npm test` checks the edition. */
function editionPackageJson(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string>; devDependencies?: Record<string, string> };
  for (const s of ["stubs", "fixtures", "bench", "release", "gradebook"]) delete pkg.scripts[s];
  pkg.scripts.test = "node --import tsx tools/edition-check.ts";
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function editionReadme(published: readonly string[]): string {
  const note = [
    "> **Student edition.** The reference solutions are not included" + (published.length > 0 ? ` (except for ${published.join(", ")}, already published)` : "") + ".",
    "> Grading compares your code with expectations your instructor froze from them (`grader/expected/`),",
    "> with the same engine and the same verdicts as the full course. Your two commands:",
    ">",
    "> ```",
    "> npm ci",
    "> npm run grade lesson-23",
    "> ```",
    "",
    "",
  ].join("\n");
  return note + readFileSync(join(ROOT, "README.md"), "utf8");
}

export interface BuildReport {
  out: string;
  files: number;
  lessons: string[];
  published: string[];
  expectedBytes: number;
  /** Every answer module of an unpublished lesson and how it shipped ("readable" ones deserve a warning). */
  answerModules: EditionAnswerModule[];
}

/**
 * Writes a new edition into `out` (which must not exist or be empty). Frozen expectations are
 * computed here, on the cpu backend, from the reference and the mutants.
 */
export async function buildEdition(out: string, published: readonly string[], log: (line: string) => void = () => undefined): Promise<BuildReport> {
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: give a new folder (or publish into an existing edition with --publish)`);
  const files = tracked().filter((f) => shipped(f, published));
  for (const f of files) {
    mkdirSync(dirname(join(out, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(out, f));
  }
  const answers = planAnswerModules(ROOT, published, new Set(files));
  for (const [file, text] of answers.texts) write(out, file, text);
  write(out, "package.json", editionPackageJson());
  write(out, "README.md", editionReadme(published));
  write(out, ".ci/run", "#!/usr/bin/env bash\n# CI of a student edition: install exactly what the lockfile says, then check the edition.\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\nnpm ci\nnpm test\n");

  const backend = await initBackend("cpu");
  const recording = recordCalls(deps as unknown as Record<string, (...a: any[]) => unknown>);
  let expectedBytes = 0;
  const lessons = gradedLessons();
  for (const lesson of lessons) {
    log(`freezing ${lesson} …`);
    const text = serializeFrozen(await freezeLesson(lesson, backend));
    expectedBytes += text.length;
    write(out, relative(ROOT, frozenPath(lesson)), text);
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
      write(out, join("stubs", lesson, f), generateStub(readFileSync(join(paths.solutions, lesson, f), "utf8"), lesson, f));
    }
  }
  write(out, DEPS, replaySource(recording));
  const info: EditionInfo = { version: 1, published: [...published], commit: commit(), builtAt: new Date().toISOString(), answerModules: answers.modules };
  write(out, EDITION_FILE, `${JSON.stringify(info, null, 2)}\n`);
  return { out, files: files.length, lessons, published: [...published], expectedBytes, answerModules: answers.modules };
}

/** Adds `lessons`' solutions to an existing edition; the learner's exercises/ and progress are not touched. */
export function publishInto(out: string, lessons: readonly string[]): EditionInfo {
  const infoFile = join(out, EDITION_FILE);
  if (!existsSync(infoFile)) throw new Error(`${out} is not a student edition (no ${EDITION_FILE})`);
  const info = JSON.parse(readFileSync(infoFile, "utf8")) as EditionInfo;
  for (const lesson of lessons) {
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
      write(out, join("solutions", lesson, f), readFileSync(join(paths.solutions, lesson, f)));
    }
  }
  info.published = [...new Set([...info.published, ...lessons])].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
  // Answer modules: a region whose lesson is published now comes back as the repository has it.
  const shippedFiles = new Set(taggedFiles(ROOT).filter((file) => existsSync(join(out, file))));
  const answers = planAnswerModules(ROOT, info.published, shippedFiles);
  for (const file of shippedFiles) {
    const want = answers.texts.get(file) ?? readFileSync(join(ROOT, file), "utf8");
    if (readFileSync(join(out, file), "utf8") !== want) write(out, file, want);
  }
  info.answerModules = answers.modules;
  write(out, EDITION_FILE, `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/**
 * The lines of unpublished solution bodies worth looking for: long, and not also part of what a
 * learner may read anyway (the stubs, lib/, the grader, the published solutions), where a line is
 * generic (a Map of counts, a whitespace class) or published on purpose.
 */
export function solutionLines(published: readonly string[]): Map<string, string> {
  let common = "";
  const addCommon = (dir: string) => {
    for (const f of existsSync(dir) ? readdirSync(dir, { recursive: true }) : []) {
      const full = join(dir, String(f));
      if (full.endsWith(".ts") && statSync(full).isFile()) common += `${readFileSync(full, "utf8")}\n`;
    }
  };
  addCommon(paths.exercises);
  addCommon(join(ROOT, "lib"));
  addCommon(join(ROOT, "grader", "engine"));
  for (const lesson of gradedLessons()) common += `${readFileSync(casesFile(lesson), "utf8")}\n`;
  for (const lesson of published) addCommon(join(paths.solutions, lesson));
  const lines = new Map<string, string>();
  for (const lesson of gradedLessons().filter((l) => !published.includes(l))) {
    const dir = join(paths.solutions, lesson);
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".ts"))) {
      let inside = false;
      for (const raw of readFileSync(join(dir, f), "utf8").split("\n")) {
        const l = raw.trim();
        if (l.includes("BEGIN SOLUTION")) inside = true;
        else if (l.includes("END SOLUTION")) inside = false;
        else if (inside && l.length >= 30 && !common.includes(l) && !l.startsWith("//") && !l.startsWith("*")) lines.set(l, `solutions/${lesson}/${f}`);
      }
    }
  }
  return lines;
}

/** Every text file of `dir` in which a line of an unpublished solution body appears. */
export function findLeaks(dir: string, published: readonly string[]): string[] {
  const lines = solutionLines(published);
  const leaks: string[] = [];
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === "node_modules" || name === ".git") continue;
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) visit(full);
      else if (st.size < 20_000_000) {
        const text = readFileSync(full, "utf8");
        for (const [line, from] of lines) if (text.includes(line)) leaks.push(`${relative(dir, full)}: a line of ${from}: ${line}`);
      }
    }
  };
  visit(dir);
  return leaks;
}

/** Removes an edition folder (tests). */
export function removeEdition(out: string): void {
  rmSync(out, { recursive: true, force: true });
}
