/**
 * npm run release -- --out <dir> [--publish lesson-23,lesson-24 | all]
 * npm run release -- --out <existing edition> --publish lesson-23     publish solutions later
 * npm run release -- --check <dir>                                    verify an edition
 *
 * Builds a student edition of the course (tools/release/edition.ts): no solutions (but the ones
 * published), no mutant source, frozen expectations in their place. Course modules that compute
 * an unpublished lesson's graded function (`@answers` tags) are withheld where they mark their
 * answer regions; the others ship readable, and each gets a warning here (on build and --check).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, runCommand, UsageError } from "../loop/cli-support.js";
import { buildEdition, EDITION_FILE, findLeaks, publishedLessons, publishInto, type EditionInfo } from "./edition.js";
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

const USAGE = `usage: npm run release -- --out <dir> [--publish lesson-23,lesson-24 | all]
       npm run release -- --check <dir>

  --out <new dir>                  write a student edition (no solutions, frozen expectations)
  --out <edition> --publish <ids>  add those lessons' solutions to an existing edition
  --check <dir>                    verify an edition: expectations, hashes, no leaked solution line`;

await runCommand(USAGE, async () => {
  const a = parseArgs(process.argv.slice(2), { flags: [], values: ["--out", "--publish", "--check"], npmFlags: false });
  if (a.positional.length > 0) throw new UsageError(`unexpected argument: ${a.positional[0]}`);
  const check = a.values.get("--check");
  if (check) {
    const problems = await checkEdition(resolve(check));
    for (const p of problems) console.log(`✗ ${p}`);
    const infoFile = resolve(check, EDITION_FILE);
    if (existsSync(infoFile)) reportAnswerModules((JSON.parse(readFileSync(infoFile, "utf8")) as EditionInfo).answerModules);
    console.log(problems.length === 0 ? "the edition checks out: expectations agree with the reference, hashes match, no solution line leaked" : `${problems.length} problem(s)`);
    return problems.length === 0 ? 0 : 1;
  }
  const outArg = a.values.get("--out");
  if (!outArg) throw new UsageError("give --out <dir> (or --check <dir>)");
  const out = resolve(outArg);
  let published: string[];
  try {
    published = publishedLessons(a.values.get("--publish"));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (existsSync(resolve(out, EDITION_FILE))) {
    if (published.length === 0) throw new UsageError(`${outArg} is already an edition: name the lessons to publish with --publish`);
    const info: EditionInfo = publishInto(out, published);
    console.log(`published ${published.join(", ")} in ${outArg}; published now: ${info.published.join(", ")}`);
    reportAnswerModules(info.answerModules);
    return 0;
  }
  if (existsSync(out) && readdirSync(out).length > 0) throw new UsageError(`${outArg} exists and is not empty`);
  const t0 = Date.now();
  const report = await buildEdition(out, published, (line) => console.error(line));
  const leaks = findLeaks(out, published);
  if (leaks.length > 0) {
    for (const l of leaks.slice(0, 20)) console.error(`leak: ${l}`);
    throw new Error(`${leaks.length} line(s) of unpublished solutions appear in the edition: see above`);
  }
  reportAnswerModules(report.answerModules);
  console.log(`wrote ${outArg}: ${report.files} files, ${report.lessons.length} lessons frozen (${(report.expectedBytes / 1e6).toFixed(1)} MB of expectations), published: ${report.published.join(", ") || "none"} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`next: cd ${outArg} && npm ci && npm test`);
  return 0;
});
