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
import { solutionLessons, stubStatuses, syncStubs } from "./sync.js";

function main(argv: string[]): number {
  const flags = new Set(argv.filter((a) => a.startsWith("--")));
  const unknown = [...flags].filter((f) => f !== "--check" && f !== "--force");
  if (unknown.length > 0) {
    console.error(`unknown option ${unknown.join(", ")}\nusage: npm run stubs -- [lesson-NN …] [--check] [--force]`);
    return 2;
  }
  const known = solutionLessons();
  const lessons: string[] = [];
  for (const name of argv.filter((a) => !a.startsWith("--"))) {
    const id = findLesson(name)?.id;
    if (!id || !known.includes(id)) {
      console.error(`no solutions for "${name}": lessons with solutions are ${known.join(", ")}`);
      return 2;
    }
    lessons.push(id);
  }
  const statuses = stubStatuses(lessons.length > 0 ? lessons : known);
  if (flags.has("--check")) {
    const bad = statuses.filter((s) => s.state === "missing" || s.state === "stale" || s.state === "diverged");
    for (const s of bad) console.error(`${relative(ROOT, s.exercisePath)}: ${s.state} (run \`npm run stubs\`)`);
    if (bad.length === 0) console.log(`${statuses.length} stub file(s) match solutions/.`);
    return bad.length === 0 ? 0 : 1;
  }
  for (const o of syncStubs(statuses, flags.has("--force"))) {
    const path = relative(ROOT, o.status.exercisePath);
    if (o.action === "written") console.log(`wrote ${path}${o.backup ? ` (your version is saved in ${relative(ROOT, o.backup)})` : ""}`);
    if (o.action === "skipped") console.log(`kept ${path}: it has your changes (\`npm run stubs -- ${o.status.lesson} --force\` regenerates it after a backup)`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
