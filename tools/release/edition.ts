/**
 * A student edition: the course as an instructor hands it to a class, without the answers. It is
 * the repository's tracked files minus solutions/ (except the lessons published), the mutants'
 * source, the PyTorch parity scripts and the authors' tools, tests and guide; in their place,
 * frozen expectations (grader/expected/), the pristine stubs (stubs/, for `npm run reset`) and a
 * recording of the functions graders borrow (grader/engine/deps.ts). The same grader runs in
 * both: grader/engine/isolate.ts reads the frozen expectations when a lesson's reference is absent.
 *
 * An edition may hold only some lessons (`--lessons 1-12`, `--assignment a1.json`): the others'
 * text, figures, exercises, grading and expectations are absent, and the grading commands say
 * "not released yet" (lib/course/edition.ts). `extendEdition` adds the next assignment's lessons
 * to an edition a class already works in: every file of exercises/ that exists, the progress
 * record and every file that is not the course's stay byte-identical.
 *
 * The edition's text fits it (tools/release/text.ts): its README is written for it (which lessons
 * are released, whether solutions are included, the commands it has), its package.json lists only
 * scripts whose files ship, and no lesson or stub names a file or command it lacks.
 *
 * Course modules that compute an unpublished lesson's graded function (their `@answers` tags,
 * grader/engine/answers.ts) ship with their answer regions replaced (tools/release/withhold.ts:
 * the runtime then uses the learner's function through lib/resolver.ts, or says "finish lesson N
 * first"); one without regions ships readable, and `BuildReport.answerModules` and the edition's
 * `.course-edition.json` name it so that the release can warn.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { initBackend } from "../../lib/backend.js";
import { CATALOG, findLesson } from "../../lib/catalog.js";
import { EDITION_FILE, readEditionInfo, type EditionAssignment, type EditionInfo } from "../../lib/course/edition.js";
import { freezeLesson } from "../../grader/engine/freeze.js";
import { frozenPath, serializeFrozen } from "../../grader/engine/frozen.js";
import { ROOT, casesFile, gradedLessons, paths } from "../../grader/engine/paths.js";
import { recordCalls, replaySource } from "../../grader/engine/replay.js";
import { deps } from "../../grader/engine/deps.js";
import { generateStub } from "../../lib/stubs.js";
import { planAnswerModules, taggedFiles, type EditionAnswerModule } from "./withhold.js";
import { adaptText, type EditionShape } from "./text.js";

export { EDITION_FILE, type EditionInfo };

/** Thrown for a release that cannot be made as asked; the message is one line for the instructor. */
export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReleaseError";
  }
}

/** Paths (relative to the root) that never ship in an edition, whatever is published. */
const NEVER = [
  /^grader\/lesson-\d+\/(mutants|variants|parity)(-[\w-]+)?\.(ts|py)$/,
  /^tools\/(parity|bench|release|gradebook|classroom)\//,
  /^tools\/selfcheck-types\.ts$/,
  /^test\//,
  /^docs\/(AUTHORING|INSTRUCTORS)\.md$/,
];

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

const byNumber = (a: string, b: string) => (findLesson(a)?.number ?? 0) - (findLesson(b)?.number ?? 0);

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

/** The lesson a file belongs to (its text in either language, figures, exercises, grading, stubs, expectations), if any. */
export function lessonOfFile(file: string): string | undefined {
  const text = /^lessons\/(?:zh\/)?(\d+)-[^/]+\.md$/.exec(file) ?? /^lessons\/figures\/lesson-(\d+)-/.exec(file);
  if (text) return `lesson-${Number(text[1])}`;
  const folder = /^(?:exercises|grader|solutions|stubs)\/(lesson-\d+)\//.exec(file) ?? /^grader\/expected\/(lesson-\d+)\.json$/.exec(file);
  return folder?.[1];
}

function shipped(file: string, published: readonly string[], released: readonly string[]): boolean {
  if (NEVER.some((r) => r.test(file))) return false;
  const lesson = lessonOfFile(file);
  if (lesson && !released.includes(lesson)) return false;
  const m = /^solutions\/(lesson-\d+)\//.exec(file);
  if (m) return published.includes(m[1]);
  return file !== DEPS;
}

function write(out: string, file: string, text: string | Buffer): void {
  mkdirSync(dirname(join(out, file)), { recursive: true });
  writeFileSync(join(out, file), text);
}

/** What a release asks for: the lessons it holds, and those whose solutions it publishes. */
export interface ReleaseOptions {
  /** Lessons whose solutions ship (each must be released). */
  published: readonly string[];
  /** Lessons the edition holds (default: every lesson of the course). */
  released?: readonly string[];
  /** The assignment that releases them ("a1"); "lessons" for a release by `--lessons`, "all" by default. */
  assignment?: string;
}

/**
 * Checks a release: published lessons are released, and no released lesson's exercises import an
 * exercise of a lesson the edition does not hold (lesson 10's imports lesson 9's RMSNorm).
 */
function checkRelease(released: readonly string[], published: readonly string[]): void {
  const notHeld = published.filter((l) => !released.includes(l));
  if (notHeld.length > 0) throw new ReleaseError(`--publish names ${notHeld.join(", ")}, which the edition does not release: release ${notHeld.length === 1 ? "it" : "them"} first`);
  for (const lesson of released.filter((l) => existsSync(join(paths.solutions, l)))) {
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
      for (const m of readFileSync(join(paths.solutions, lesson, f), "utf8").matchAll(/from "\.\.\/(lesson-\d+)\//g)) {
        if (!released.includes(m[1])) throw new ReleaseError(`${lesson}'s exercises import ${m[1]}'s (exercises/${lesson}/${f}): release ${m[1]} too`);
      }
    }
  }
}

/** The stub note of an edition: no solutions/ or `npm run stubs` there, `npm run reset` instead. */
export function editionStub(text: string, lesson: string): string {
  return text.replace(
    /Generated from\n\/\/ solutions\/ by `npm run stubs`; edit freely\./,
    `\`npm run reset ${lesson}\`\n// brings this stub back (it keeps your version in .backups/); edit freely.`,
  );
}

/** package.json for learners: scripts whose files the edition does not ship go, `npm test` checks the edition. */
function editionPackageJson(files: ReadonlySet<string>): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  // The stub generator ships (lib/stubs.ts's command) but needs solutions/: not a learner's command.
  delete pkg.scripts.stubs;
  for (const [name, command] of Object.entries(pkg.scripts)) {
    const sources = command.split(/\s+/).filter((t) => /^[\w./-]+\.(ts|mjs|js)$/.test(t));
    if (sources.some((s) => !files.has(s))) delete pkg.scripts[name];
  }
  pkg.scripts.test = "node --import tsx tools/edition-check.ts";
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** A lesson range as a person writes it: "lessons 1-12", "lessons 3, 5 and 23". */
export function describeLessons(lessons: readonly string[]): string {
  const nums = lessons.map((l) => findLesson(l)?.number ?? 0).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    parts.push(j > i ? `${nums[i]}-${nums[j]}` : `${nums[i]}`);
    i = j + 1;
  }
  if (parts.length === 0) return "no lessons";
  return `lesson${nums.length > 1 ? "s" : ""} ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0]}`;
}

/** README sections of the full course that are not the learner's (their commands are not in an edition). */
const AUTHORS_ONLY = ["For instructors and authors", "Tests"];

/** The edition's README: a header written for it, then the course's README without the authors' sections, adapted to what ships. */
function editionReadme(released: readonly string[], published: readonly string[], shape: EditionShape): string {
  const graded = new Set(gradedLessons());
  const releasedGraded = released.filter((l) => graded.has(l));
  const first = releasedGraded[0];
  const firstInfo = first ? findLesson(first)! : undefined;
  const all = released.length === CATALOG.length;
  const head = [
    "# Post-training LLMs, in TypeScript: student edition",
    "",
    `> **Student edition.** It holds ${all ? "every lesson of the course" : `${describeLessons(released)} of the course's ${CATALOG.length}`}` +
      (all ? "." : `; your instructor releases the next lessons into this folder, and your work stays as it is.`),
    `> Reference solutions: ${published.length === 0 ? "not included" : `included for ${describeLessons(published)} (\`solutions/\`); not included for the other lessons`}.`,
    "> Grading compares your code with expectations your instructor froze from them (`grader/expected/`),",
    "> with the same engine and the same verdicts as the full course.",
    "",
    "## Start here",
    "",
    "```",
    "npm ci",
    "npm run doctor                 # what this machine can run",
    ...(first ? [`${`npm run grade ${first}`.padEnd(31)}# grade your exercises for lesson ${firstInfo!.number}`] : []),
    "npm run grade                  # your progress over the lessons released",
    "npm test                       # checks that this edition installs and grades",
    "```",
    "",
    ...(first
      ? [
          `1. Read \`lessons/${firstInfo!.file}\`.`,
          `2. Open the files of \`exercises/${first}/\`. Every function body throws \`NotImplementedError\`; replace it with your code.`,
          `3. Run \`npm run grade ${first}\`, read the report, repeat until every function passes.`,
          "",
        ]
      : []),
    "Lessons in this edition:",
    "",
    ...released.map((l) => {
      const info = findLesson(l)!;
      return `- [${info.number}. ${info.title}](lessons/${info.file})${graded.has(l) ? ` — \`exercises/${l}/\`` : ""}${published.includes(l) ? " (solution published)" : ""}`;
    }),
    "",
  ];
  const source = readFileSync(join(ROOT, "README.md"), "utf8");
  const sections = source.split(/^(?=## )/m);
  const kept = sections.slice(1).filter((s) => {
    const title = /^## (.*)/.exec(s)?.[1].trim() ?? "";
    return title !== "Start here" && !AUTHORS_ONLY.includes(title);
  });
  const readme = `${head.join("\n")}\n${kept.join("")}`
    .replace("| the command-line entries: the stub generator, the fixture runner, site, release, benchmarks |", "| the command-line entries: grading, hints, reset, site, labs, training, serving |")
    .replace(/^`npm run bench` times /m, "The full course's benchmark times ")
    .replace("Measured by one `npm run bench model`", "Measured by one run of the full course's model benchmark");
  // The lesson list links only lessons the edition holds: the rest of the text is adapted like a lesson's.
  return adaptText(readme, "README.md", shape);
}

/** An EditionShape over a set of relative file paths (directories are their prefixes). */
function shapeOf(files: ReadonlySet<string>, packageJson: string): EditionShape {
  const dirs = new Set<string>();
  for (const f of files) for (let i = f.indexOf("/"); i >= 0; i = f.indexOf("/", i + 1)) dirs.add(f.slice(0, i));
  const scripts = new Set(Object.keys((JSON.parse(packageJson) as { scripts: Record<string, string> }).scripts));
  return { exists: (p) => files.has(p) || dirs.has(p), scripts };
}

/** The stub files of the released graded lessons: "stubs/lesson-3/sampling.ts" → its edition text. */
function stubTexts(lessons: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const lesson of lessons) {
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
      texts.set(`stubs/${lesson}/${f}`, editionStub(generateStub(readFileSync(join(paths.solutions, lesson, f), "utf8"), lesson, f), lesson));
    }
  }
  return texts;
}

/** The course's tsconfig.json with `include` narrowed to the learner's code: exercises/ and stubs/. */
function partialTsconfig(): string {
  const config = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8")) as { include?: string[] };
  config.include = ["exercises", "stubs"];
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** What writing the course's files into an edition did. */
interface Written {
  files: string[];
  answerModules: EditionAnswerModule[];
  /** exercises/ files left as they were (they exist: the learner's). */
  kept: string[];
  /** SHA-256 of every course file as written (EditionInfo.shipped). */
  shipped: Record<string, string>;
  /** Course files the learner had changed, copied beside the new ones before they were written: [file, its copy]. */
  saved: Array<[string, string]>;
}

const sha256 = (content: string | Buffer) => createHash("sha256").update(content).digest("hex");

/** A free name for the learner's copy of `file`: `<file>.mine`, else `<file>.mine.2`, … (never a .ts file that tools would pick up). */
function mineName(out: string, file: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${file}.mine` : `${file}.mine.${n}`;
    if (!existsSync(join(out, name))) return name;
  }
}

/**
 * Writes the course's files of an edition holding `released` and publishing `published` into
 * `out`: the tracked files that ship (lessons and stubs adapted), the withheld answer modules,
 * package.json, README.md, .ci/run and the pristine stubs. An exercises/ file that already exists
 * is never written (it is the learner's); nothing is removed. Adding to an edition (`previous`: what
 * it shipped, EditionInfo.shipped, or null for an edition built before that record), a course file
 * that is there with other content than the one written now and than the one shipped (the learner
 * changed it, or there is no record) is first copied to `<file>.mine`: no learner work is lost.
 */
function writeCourseFiles(out: string, released: readonly string[], published: readonly string[], previous?: Record<string, string> | null): Written {
  const graded = gradedLessons().filter((l) => released.includes(l));
  const files = tracked().filter((f) => shipped(f, published, released));
  const stubs = stubTexts(graded);
  const generated = ["package.json", "README.md", ".ci/run", DEPS, EDITION_FILE, ...stubs.keys(), ...graded.map((l) => relative(ROOT, frozenPath(l)).split("\\").join("/"))];
  const all = new Set([...files, ...generated]);
  const packageJson = editionPackageJson(all);
  const shape = shapeOf(all, packageJson);
  const answers = planAnswerModules(ROOT, published, new Set(files));
  const kept: string[] = [];
  const hashes: Record<string, string> = {};
  const saved: Array<[string, string]> = [];
  const put = (f: string, content: string | Buffer) => {
    const hash = sha256(content);
    // (A file written earlier in this run, e.g. the course's README before the edition's, is not the learner's.)
    if (previous !== undefined && hashes[f] === undefined && existsSync(join(out, f))) {
      const now = sha256(readFileSync(join(out, f)));
      if (now !== hash && now !== previous?.[f]) {
        const copy = mineName(out, f);
        write(out, copy, readFileSync(join(out, f)));
        saved.push([f, copy]);
      }
    }
    write(out, f, content);
    hashes[f] = hash;
  };
  for (const f of files) {
    if (f.startsWith("exercises/") && existsSync(join(out, f))) {
      kept.push(f);
      continue;
    }
    const lesson = lessonOfFile(f);
    let content: string | Buffer = answers.texts.get(f) ?? readFileSync(join(ROOT, f));
    if ((f.startsWith("lessons/") && f.endsWith(".md")) || /^grader\/lesson-\d+\/hints\.ts$/.test(f)) content = adaptText(content.toString("utf8"), f, shape);
    else if (f.startsWith("exercises/") && f.endsWith(".ts") && lesson) content = adaptText(editionStub(content.toString("utf8"), lesson), f, shape);
    // A new exercise file is the course's stub until the learner writes in it: recorded with the rest.
    put(f, content);
  }
  for (const [f, text] of stubs) put(f, adaptText(text, f, shape));
  put("package.json", packageJson);
  // `npm run typecheck` of an edition holding some lessons checks the learner's code (and what it
  // imports): the labs of the lessons not released import those lessons' exercise types.
  if (released.length < CATALOG.length) put("tsconfig.json", partialTsconfig());
  put("README.md", editionReadme(released, published, shape));
  put(".ci/run", "#!/usr/bin/env bash\n# CI of a student edition: install exactly what the lockfile says, then check the edition.\nset -euo pipefail\ncd \"$(dirname \"$0\")/..\"\nnpm ci\nnpm test\n");
  return { files, answerModules: answers.modules, kept, shipped: hashes, saved };
}

/** Freezes the expectations of `lessons` (graded ones) into `out` and records the borrowed functions for them. */
async function freezeInto(out: string, lessons: readonly string[], log: (line: string) => void): Promise<number> {
  const backend = await initBackend("cpu");
  const recording = recordCalls(deps as unknown as Record<string, (...a: any[]) => unknown>);
  let expectedBytes = 0;
  for (const lesson of lessons) {
    log(`freezing ${lesson} …`);
    const text = serializeFrozen(await freezeLesson(lesson, backend));
    expectedBytes += text.length;
    write(out, relative(ROOT, frozenPath(lesson)), text);
  }
  write(out, DEPS, replaySource(recording));
  return expectedBytes;
}

export interface BuildReport {
  out: string;
  files: number;
  /** The graded lessons frozen. */
  lessons: string[];
  /** Every lesson the edition holds. */
  released: string[];
  published: string[];
  expectedBytes: number;
  /** Every answer module of an unpublished lesson and how it shipped ("readable" ones deserve a warning). */
  answerModules: EditionAnswerModule[];
}

function writeInfo(out: string, info: EditionInfo): void {
  write(out, EDITION_FILE, `${JSON.stringify(info, null, 2)}\n`);
}

/**
 * Writes a new edition into `out` (which must not exist or be empty). Frozen expectations are
 * computed here, on the cpu backend, from the reference and the mutants. `options` may be the
 * published lessons alone (every lesson released).
 */
export async function buildEdition(out: string, options: ReleaseOptions | readonly string[], log: (line: string) => void = () => undefined): Promise<BuildReport> {
  const opts: ReleaseOptions = Array.isArray(options) ? { published: options } : (options as ReleaseOptions);
  if (existsSync(out) && readdirSync(out).length > 0) throw new ReleaseError(`${out} is not empty: give a new folder (or add lessons to an edition with --into)`);
  const released = [...(opts.released ?? CATALOG.map((l) => l.id))].sort(byNumber);
  const published = [...opts.published].sort(byNumber);
  checkRelease(released, published);
  const written = writeCourseFiles(out, released, published);
  const lessons = gradedLessons().filter((l) => released.includes(l));
  const expectedBytes = await freezeInto(out, lessons, log);
  const now = new Date().toISOString();
  const sha = commit();
  const assignment: EditionAssignment = { name: opts.assignment ?? "all", lessons: released, addedAt: now, commit: sha };
  writeInfo(out, { version: 1, published, released, assignments: [assignment], commit: sha, builtAt: now, answerModules: written.answerModules, shipped: written.shipped });
  return { out, files: written.files.length, lessons, released, published, expectedBytes, answerModules: written.answerModules };
}

/** What `extendEdition` did. */
export interface ExtendReport extends BuildReport {
  /** The lessons this call added. */
  added: string[];
  /** exercises/ files that were there and stayed as they were. */
  kept: string[];
  /** Course files the learner had changed: [file, the copy of the learner's version beside it]. */
  saved: Array<[string, string]>;
}

/**
 * Adds `lessons` (an assignment's) to the edition in `out`: their text, exercises, stubs and
 * expectations, the README and lesson texts rewritten for the lessons now held, and every released
 * lesson's expectations frozen afresh from this course. A file of exercises/ that exists, the
 * progress record and every file that is not the course's stay byte-identical; a course file the
 * learner changed is copied to `<file>.mine` before the new one is written; nothing is removed.
 */
export async function extendEdition(out: string, lessons: readonly string[], assignment: string, publish: readonly string[] = [], log: (line: string) => void = () => undefined): Promise<ExtendReport> {
  const info = readEditionInfo(out);
  if (!info) throw new ReleaseError(`${out} is not a student edition (no readable ${EDITION_FILE}): give the folder \`npm run release\` wrote`);
  const before = info.released ?? CATALOG.map((l) => l.id);
  const added = lessons.filter((l) => !before.includes(l));
  if (added.length === 0) throw new ReleaseError(`${out} already holds ${describeLessons(lessons)}: nothing to add`);
  if ((info.assignments ?? []).some((a) => a.name === assignment && assignment !== "lessons")) throw new ReleaseError(`${out} already holds assignment "${assignment}": give the next assignment a name of its own`);
  const released = [...new Set([...before, ...added])].sort(byNumber);
  const published = [...new Set([...info.published, ...publish])].sort(byNumber);
  checkRelease(released, published);
  const written = writeCourseFiles(out, released, published, info.shipped ?? null);
  const frozen = gradedLessons().filter((l) => released.includes(l));
  const expectedBytes = await freezeInto(out, frozen, log);
  const now = new Date().toISOString();
  const sha = commit();
  const next: EditionInfo = {
    ...info,
    published,
    released,
    assignments: [...(info.assignments ?? []), { name: assignment, lessons: added, addedAt: now, commit: sha }],
    commit: sha,
    answerModules: written.answerModules,
    shipped: written.shipped,
  };
  writeInfo(out, next);
  return { out, files: written.files.length, lessons: frozen, released, published, expectedBytes, answerModules: written.answerModules, added, kept: written.kept, saved: written.saved };
}

/** Adds `lessons`' solutions to an existing edition; the learner's exercises/ and progress are not touched. */
export function publishInto(out: string, lessons: readonly string[]): EditionInfo {
  const info = readEditionInfo(out);
  if (!info) throw new ReleaseError(`${out} is not a student edition (no readable ${EDITION_FILE})`);
  const released = info.released ?? CATALOG.map((l) => l.id);
  checkRelease(released, lessons);
  for (const lesson of lessons) {
    for (const f of readdirSync(join(paths.solutions, lesson)).filter((x) => x.endsWith(".ts"))) {
      write(out, join("solutions", lesson, f), readFileSync(join(paths.solutions, lesson, f)));
    }
  }
  info.published = [...new Set([...info.published, ...lessons])].sort(byNumber);
  // Answer modules: a region whose lesson is published now comes back as the repository has it.
  const shippedFiles = new Set(taggedFiles(ROOT).filter((file) => existsSync(join(out, file))));
  const answers = planAnswerModules(ROOT, info.published, shippedFiles);
  for (const file of shippedFiles) {
    const want = answers.texts.get(file) ?? readFileSync(join(ROOT, file), "utf8");
    if (readFileSync(join(out, file), "utf8") !== want) write(out, file, want);
  }
  info.answerModules = answers.modules;
  // The README says which solutions are included now.
  const files = new Set(tracked().filter((f) => shipped(f, info.published, released)));
  for (const f of ["package.json", "README.md", ".ci/run", DEPS, EDITION_FILE]) files.add(f);
  for (const f of stubTexts(gradedLessons().filter((l) => released.includes(l))).keys()) files.add(f);
  const packageJson = readFileSync(join(out, "package.json"), "utf8");
  write(out, "README.md", editionReadme(released, info.published, shapeOf(files, packageJson)));
  writeInfo(out, info);
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
