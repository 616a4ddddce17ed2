/**
 * npm run lab lesson-NN [-- lab options]
 *
 * Runs labs/<lesson>/main.ts: its default export receives a LabContext (an output folder that git
 * ignores, the started backend, and the remaining arguments).
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { BackendError, initBackend } from "../lib/backend.js";
import { findLesson } from "../lib/catalog.js";
import { ROOT } from "../grader/engine/paths.js";
import type { Lab } from "./lab.js";

const LABS = join(ROOT, "labs");

function availableLabs(): string[] {
  return readdirSync(LABS)
    .filter((d) => existsSync(join(LABS, d, "main.ts")))
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)));
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const labs = availableLabs();
  const lesson = name ? findLesson(name) : undefined;
  if (!lesson || !labs.includes(lesson.id)) {
    console.error(`${name ? `no lab for "${name}"` : "which lab?"}: usage: npm run lab <lesson>, with one of ${labs.join(", ")}`);
    return 2;
  }
  const dir = join(LABS, lesson.id);
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

process.exitCode = await main(process.argv.slice(2));
