/**
 * npm run bench [name …]
 *
 * Runs every tools/bench/<name>.bench.ts (or the named ones) and prints what each measured.
 * A bench exports a default function returning its report text (or a Promise of it).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BackendError, initBackend } from "../../lib/backend.js";
import { ROOT } from "../../grader/engine/paths.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";

const DIR = join(ROOT, "tools", "bench");

const all = readdirSync(DIR).filter((f) => f.endsWith(".bench.ts")).map((f) => f.replace(/\.bench\.ts$/, "")).sort();

const USAGE = `usage: npm run bench [name …]

Runs every tools/bench/<name>.bench.ts (or the named ones) and prints what each measured.
Benches: ${all.join(", ")}`;

async function main(argv: string[]): Promise<number> {
  const { positionals } = parseOptions(argv, {}, { positionals: true });
  const unknown = positionals.filter((a) => !all.includes(a));
  if (unknown.length > 0) throw new UsageError(`unknown bench ${unknown.join(", ")}: have ${all.join(", ")}`);
  try {
    await initBackend("cpu");
  } catch (err) {
    if (err instanceof BackendError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  for (const name of positionals.length > 0 ? positionals : all) {
    const mod = (await import(pathToFileURL(join(DIR, `${name}.bench.ts`)).href)) as { default: () => string | Promise<string> };
    console.log(await mod.default());
    console.log("");
  }
  return 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
