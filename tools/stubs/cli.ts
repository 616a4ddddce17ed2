/**
 * npm run stubs [lesson-NN …] [--check] [--force]
 *
 * Regenerates exercises/ from solutions/. Files a learner has edited are never overwritten unless
 * --force is given, and then a timestamped copy is kept under .backups/ first.
 * --check writes nothing and exits 1 when a committed stub is out of date.
 */
import { relative } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { ROOT } from "../../grader/engine/paths.js";
import { npmFlag, parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { solutionLessons, stubStatuses, syncStubs } from "./sync.js";

const USAGE = `usage: npm run stubs -- [lesson-NN …] [--check] [--force]

  npm run stubs                 regenerate exercises/ from solutions/ (files you edited are kept)
  npm run stubs -- --check      write nothing; exit 1 when a committed stub is out of date
  npm run stubs -- lesson-23 --force   regenerate lesson-23 even where you edited it (after a backup)`;

function main(argv: string[]): number {
  // --force overwrites edited files: it must be typed after `--` (npm's own --force, or force=true in
  // an .npmrc, must not turn it on); --check, typed to npm without `--`, still counts.
  const { values, positionals } = parseOptions(argv, { check: { type: "boolean" }, force: { type: "boolean" } }, { positionals: true, npmFlags: false });
  const check = values.check === true || npmFlag("check");
  const known = solutionLessons();
  const lessons: string[] = [];
  for (const name of positionals) {
    const id = findLesson(name)?.id;
    if (!id || !known.includes(id)) throw new UsageError(`no solutions for "${name}": lessons with solutions are ${known.join(", ")}`);
    lessons.push(id);
  }
  const statuses = stubStatuses(lessons.length > 0 ? lessons : known);
  if (check) {
    const bad = statuses.filter((s) => s.state === "missing" || s.state === "stale" || s.state === "diverged");
    for (const s of bad) console.error(`${relative(ROOT, s.exercisePath)}: ${s.state} (run \`npm run stubs\`)`);
    if (bad.length === 0) console.log(`${statuses.length} stub file(s) match solutions/.`);
    return bad.length === 0 ? 0 : 1;
  }
  for (const o of syncStubs(statuses, values.force === true)) {
    const path = relative(ROOT, o.status.exercisePath);
    if (o.action === "written") console.log(`wrote ${path}${o.backup ? ` (your version is saved in ${relative(ROOT, o.backup)})` : ""}`);
    if (o.action === "skipped") console.log(`kept ${path}: it has your changes (\`npm run stubs -- ${o.status.lesson} --force\` regenerates it after a backup)`);
  }
  return 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
