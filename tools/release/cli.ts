/**
 * npm run release -- --out <dir> [--assignment a1.json | --lessons 1-12] [--publish lesson-3,… | all]
 * npm run release -- --into <edition> (--assignment a2.json | --lessons 13-22) [--publish …]
 * npm run release -- --into <edition> --publish lesson-23                 publish solutions later
 * npm run release -- --check <dir>                                        verify an edition
 *
 * Builds a student edition of the course (tools/release/edition.ts): no solutions (but the ones
 * published), no mutant source, frozen expectations in their place; with an assignment (or
 * --lessons) only those lessons, and `--into` adds the next assignment's lessons to the edition a
 * class already works in, leaving every learner file as it is. Course modules that compute an
 * unpublished lesson's graded function (`@answers` tags) are withheld where they mark their answer
 * regions; the others ship readable, and each gets a warning here (on build and --check).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, runCommand, UsageError } from "../loop/cli-support.js";
import { AssignmentError, loadAssignment, parseLessonList } from "../classroom/assignment.js";
import { buildEdition, describeLessons, EDITION_FILE, extendEdition, findLeaks, publishedLessons, publishInto, ReleaseError, type EditionInfo } from "./edition.js";
import { checkEdition } from "./check.js";
import { describeAnswerModule, type EditionAnswerModule } from "./withhold.js";

/** The build's (or an edition's) answer modules, withheld ones as notes, readable ones as warnings. */
function reportAnswerModules(modules: readonly EditionAnswerModule[] | undefined): void {
  for (const m of modules ?? []) console.error(`${m.shipped === "readable" ? "warning" : "withheld"}: ${describeAnswerModule(m)}`);
  const readable = (modules ?? []).filter((m) => m.shipped === "readable");
  if (readable.length > 0) {
    console.error(`warning: ${readable.length} answer module(s) of unpublished lessons ship readable: a learner can read those lessons' answers there (publish the lessons, or give the modules answer regions: grader/engine/answers.ts)`);
  }
}

const USAGE = `usage: npm run release -- --out <dir> [--assignment a1.json | --lessons 1-12] [--publish lesson-23,lesson-24 | all]
       npm run release -- --into <edition> (--assignment a2.json | --lessons 13-22) [--publish …]
       npm run release -- --into <edition> --publish <ids>
       npm run release -- --check <dir>

  --out <new dir>                  write a student edition (no solutions, frozen expectations)
  --assignment <file>              only the assignment's lessons (tools/classroom/assignment.ts)
  --lessons <list>                 only these lessons: 1-12, or 3,5,23
  --into <edition> --assignment …  add the next assignment's lessons; learner files stay as they are
  --into <edition> --publish <ids> add those lessons' solutions (--out <edition> does the same)
  --check <dir>                    verify an edition: expectations, hashes, no leaked solution line, its text`;

/** The lessons and the assignment name that --assignment or --lessons give (undefined: neither). */
function releasedBy(assignmentFile: string | undefined, lessons: string | undefined): { lessons: string[]; name: string } | undefined {
  if (assignmentFile && lessons) throw new UsageError("give --assignment or --lessons, not both");
  if (assignmentFile) {
    const a = loadAssignment(resolve(assignmentFile));
    return { lessons: a.lessons, name: a.name };
  }
  if (lessons !== undefined) return { lessons: parseLessonList(lessons, "--lessons"), name: "lessons" };
  return undefined;
}

await runCommand(USAGE, async () => {
  const a = parseArgs(process.argv.slice(2), { flags: [], values: ["--out", "--into", "--publish", "--check", "--assignment", "--lessons"], npmFlags: false });
  if (a.positional.length > 0) throw new UsageError(`unexpected argument: ${a.positional[0]}`);
  const check = a.values.get("--check");
  if (check) {
    const problems = await checkEdition(resolve(check));
    for (const p of problems) console.log(`✗ ${p}`);
    const infoFile = resolve(check, EDITION_FILE);
    if (existsSync(infoFile)) reportAnswerModules((JSON.parse(readFileSync(infoFile, "utf8")) as EditionInfo).answerModules);
    console.log(problems.length === 0 ? "the edition checks out: expectations agree with the reference, hashes match, no solution line leaked, its text names only what it ships" : `${problems.length} problem(s)`);
    return problems.length === 0 ? 0 : 1;
  }
  const outArg = a.values.get("--out");
  const intoArg = a.values.get("--into");
  if (outArg && intoArg) throw new UsageError("give --out <new folder> or --into <edition>, not both");
  if (!outArg && !intoArg) throw new UsageError("give --out <dir>, --into <edition> (or --check <dir>)");
  let published: string[];
  let release: { lessons: string[]; name: string } | undefined;
  try {
    published = publishedLessons(a.values.get("--publish"));
    release = releasedBy(a.values.get("--assignment"), a.values.get("--lessons"));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (err instanceof AssignmentError) throw new ReleaseError(err.message);
    throw new UsageError((err as Error).message);
  }
  const t0 = Date.now();
  const seconds = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const target = resolve((outArg ?? intoArg)!);
  const shown = (outArg ?? intoArg)!;
  if (intoArg || existsSync(resolve(target, EDITION_FILE))) {
    if (!existsSync(resolve(target, EDITION_FILE))) throw new ReleaseError(`${shown} is not a student edition (no ${EDITION_FILE}): give the folder \`npm run release -- --out\` wrote`);
    if (release) {
      const report = await extendEdition(target, release.lessons, release.name, published, (line) => console.error(line));
      reportAnswerModules(report.answerModules);
      console.log(`added ${describeLessons(report.added)} (${release.name}) to ${shown}: it holds ${describeLessons(report.released)} now; ${report.kept.length} learner file(s) in exercises/ left as they were (${seconds()})`);
      if (report.saved.length > 0) console.log(`${report.saved.length} course file(s) had been changed in the edition; the new version is in place and the changed one kept beside it: ${report.saved.map(([f, copy]) => `${f} → ${copy}`).join(", ")}`);
      return 0;
    }
    if (published.length === 0) throw new UsageError(`${shown} is already an edition: add lessons with --assignment or --lessons, or publish solutions with --publish`);
    const info: EditionInfo = publishInto(target, published);
    console.log(`published ${published.join(", ")} in ${shown}; published now: ${info.published.join(", ")}`);
    reportAnswerModules(info.answerModules);
    return 0;
  }
  if (existsSync(target) && readdirSync(target).length > 0) throw new ReleaseError(`${shown} exists and is not empty (nor an edition): give a new folder`);
  const report = await buildEdition(target, { published, released: release?.lessons, assignment: release?.name }, (line) => console.error(line));
  const leaks = findLeaks(target, published);
  if (leaks.length > 0) {
    for (const l of leaks.slice(0, 20)) console.error(`leak: ${l}`);
    throw new Error(`${leaks.length} line(s) of unpublished solutions appear in the edition: see above`);
  }
  reportAnswerModules(report.answerModules);
  console.log(`wrote ${shown}: ${describeLessons(report.released)}, ${report.files} files, ${report.lessons.length} graded lesson(s) frozen (${(report.expectedBytes / 1e6).toFixed(1)} MB of expectations), published: ${report.published.join(", ") || "none"} (${seconds()})`);
  console.log(`next: cd ${shown} && npm ci && npm test`);
  return 0;
});
