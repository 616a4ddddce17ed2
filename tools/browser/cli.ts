/**
 * node --import tsx tools/browser/cli.ts --out <dir> [--lessons lesson-3,lesson-9]
 *
 * Builds grading in a browser (build.ts) into <dir>: open <dir>/grade.html from any static host.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { buildBrowserGrading } from "./build.js";
import { BROWSER_LESSONS } from "./lessons.js";

const USAGE = "usage: node --import tsx tools/browser/cli.ts --out <dir> [--lessons lesson-3,…]";

async function main(): Promise<number> {
  let values: { out?: string; lessons?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, lessons: { type: "string" }, help: { type: "boolean" } } }));
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(USAGE);
    return 2;
  }
  const lessons = values.lessons ? values.lessons.split(",").map((s) => s.trim()) : BROWSER_LESSONS;
  const unknown = lessons.filter((l) => !BROWSER_LESSONS.includes(l));
  if (unknown.length > 0) {
    console.error(`not supported in the browser: ${unknown.join(", ")} (supported: ${BROWSER_LESSONS.join(", ")}; tools/browser/lessons.ts says why the others are not)`);
    return 2;
  }
  await buildBrowserGrading(resolve(values.out), lessons, (line) => console.log(line));
  return 0;
}

process.exitCode = await main();
