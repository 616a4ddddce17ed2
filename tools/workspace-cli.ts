/**
 * npm run workspace -- import <file.zip> | export <file.zip>
 *
 * Moves a learner's work between a clone and the course in a browser tab (`npm run site`'s
 * workspace pages). `import` writes a zip exported from the page (or from another clone) into
 * exercises/ (or COURSE_EXERCISES_DIR): each file it replaces is backed up under .backups/ first,
 * and a zip holding anything but exercises/<graded lesson>/<file>.ts and the page's progress side
 * file is refused whole (exit 1, nothing written). `export` zips this clone's exercise files for
 * the page's Import button. Exit codes: 0 done, 1 refused, 2 usage error. tools/workspace-zip.ts
 * does the work.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { gradedLessons } from "../grader/engine/paths.js";
import { parseArgs, runCommand, UsageError } from "./loop/cli-support.js";
import { exercisesDir, shown } from "./loop/locations.js";
import { exportWorkspace, importWorkspace, WorkspaceZipRefused } from "./workspace-zip.js";

const USAGE = `usage: npm run workspace -- import <file.zip> | export <file.zip>

  npm run workspace -- import workspace.zip   your files from the course's workspace pages into exercises/
                                              (every file it replaces is backed up under .backups/ first)
  npm run workspace -- export workspace.zip   your exercises/ as a zip, for the page's Import button`;

async function importCommand(zip: string): Promise<number> {
  if (!existsSync(zip)) throw new UsageError(`${zip}: no such file`);
  const dir = exercisesDir();
  const r = await importWorkspace(zip, dir, gradedLessons());
  for (const f of r.created) console.log(`  new       ${shown(f)}`);
  for (const f of r.replaced) console.log(`  replaced  ${shown(f.file)}  (your previous file: ${shown(f.backup)})`);
  if (r.unchanged.length > 0) console.log(`  unchanged ${r.unchanged.length} file(s) already as in the zip`);
  const lessons = [...new Set([...r.created, ...r.replaced.map((x) => x.file)].map((f) => /lesson-\d+/.exec(f.slice(dir.length))?.[0]).filter((l): l is string => !!l))];
  console.log(`imported ${r.created.length + r.replaced.length} file(s) into ${shown(dir)}/${r.replaced.length > 0 ? `; ${r.replaced.length} replaced, each backed up first` : ""}`);
  const graded = Object.entries(r.progress?.grades ?? {});
  if (graded.length > 0) console.log(`the page's last grades (self-study, not saved here): ${graded.map(([l, g]) => `${l} ${g.passed}/${g.total}`).join(", ")}`);
  if (lessons.length > 0) console.log(`next: npm run grade ${lessons[0]}`);
  return 0;
}

function exportCommand(zip: string): number {
  const dir = exercisesDir();
  const files = exportWorkspace(dir, zip, gradedLessons());
  const n = Object.values(files).reduce((a, f) => a + Object.keys(f).length, 0);
  console.log(`wrote ${shown(resolve(zip))}: ${n} file(s) of ${Object.keys(files).length} lesson(s) from ${shown(dir)}/ (import it on any workspace page)`);
  return 0;
}

await runCommand(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), { flags: [] });
  const [command, zip, extra] = args.positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  if (command !== "import" && command !== "export") throw new UsageError(command === undefined ? "give a command: import or export" : `unknown command ${command}: import or export`);
  if (!zip) throw new UsageError(`${command} needs a .zip file`);
  if (!zip.toLowerCase().endsWith(".zip")) throw new UsageError(`${zip}: give a .zip file`);
  try {
    return command === "import" ? await importCommand(resolve(zip)) : exportCommand(resolve(zip));
  } catch (err) {
    if (!(err instanceof WorkspaceZipRefused)) throw err;
    console.error(`refused: ${err.message}`);
    return 1;
  }
});
