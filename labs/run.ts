/**
 * npm run lab lesson-NN [-- lab options]
 * npm run lab areal-async          (a lab that belongs to a track rather than a lesson)
 *
 * Runs labs/<name>/main.ts: its default export receives a LabContext (an output folder that git
 * ignores, the started backend, and the remaining arguments). Options before the lab's name are
 * the runner's (only `--help`); the arguments after it are the lab's own. `--help` anywhere prints
 * the usage and runs nothing.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { BackendError, initBackend } from "../lib/backend.js";
import { findLesson } from "../lib/catalog.js";
import { notReleased, notReleasedMessage } from "../lib/course/edition.js";
import { ROOT } from "../grader/engine/paths.js";
import { HelpRequested, parseOptions, runCommand, UsageError } from "../tools/loop/cli-support.js";
import type { Lab } from "./lab.js";

const LABS = join(ROOT, "labs");

/** Lesson labs in lesson order, then the other labs (capstones) by name. */
function labOrder(name: string): number {
  return findLesson(name)?.number ?? Number.MAX_SAFE_INTEGER;
}

function availableLabs(): string[] {
  return readdirSync(LABS)
    .filter((d) => existsSync(join(LABS, d, "main.ts")))
    .sort((a, b) => labOrder(a) - labOrder(b) || a.localeCompare(b));
}

function usage(): string {
  return `usage: npm run lab <lesson> [-- the lab's options]

  npm run lab lesson-7                run labs/lesson-7/main.ts (its output goes to labs/lesson-7/out/)
  npm run lab areal-async             a lab of a track rather than a lesson

Labs: ${availableLabs().join(", ")}`;
}

async function main(argv: string[]): Promise<number> {
  const at = argv.findIndex((a) => !a.startsWith("-"));
  const runnerArgs = at < 0 ? argv : argv.slice(0, at);
  const [name, ...rest] = at < 0 ? [] : argv.slice(at);
  // `npm run lab lesson-7 -- --help` asks the runner too: no lab reads --help, so none runs.
  if (rest.some((a) => a === "--help" || a === "-h")) throw new HelpRequested();
  parseOptions(runnerArgs, {});
  const labs = availableLabs();
  const id = name === undefined ? undefined : labs.includes(name) ? name : findLesson(name)?.id;
  if (!id || !labs.includes(id)) throw new UsageError(name ? `no lab for "${name}"` : "which lab?");
  if (notReleased(id)) throw new UsageError(notReleasedMessage(id));
  const dir = join(LABS, id);
  const outDir = join(dir, "out");
  mkdirSync(outDir, { recursive: true });
  let backend: string;
  try {
    backend = await initBackend("cpu");
  } catch (err) {
    if (err instanceof BackendError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const lab = (await import(pathToFileURL(join(dir, "main.ts")).href)) as { default: Lab };
  await lab.default({ outDir, backend, args: rest, show: (file) => relative(ROOT, file) });
  return 0;
}

await runCommand(usage(), () => main(process.argv.slice(2)), { lessonFunctions: true });
