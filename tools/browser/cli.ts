/**
 * node --import tsx tools/browser/cli.ts --out <dir> [--lessons lesson-3,lesson-9] [--publish all|lesson-9,…]
 *
 * Builds grading in a browser (build.ts) into <dir>: open <dir>/grade.html from any static host.
 * --publish lets the training pages (train.html, grpo.html) ship those lessons' references, so they
 * run before the learner has passed them (default: a student edition's published lessons, else none).
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { buildBrowserGrading } from "./build.js";
import { BROWSER_LESSONS } from "./lessons.js";
import { parsePublish } from "./train-build.js";

const USAGE = "usage: node --import tsx tools/browser/cli.ts --out <dir> [--lessons lesson-3,…] [--publish all|lesson-9,…]";

async function main(): Promise<number> {
  let values: { out?: string; lessons?: string; publish?: string; help?: boolean };
  let publish: readonly string[] | "all" | undefined;
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, lessons: { type: "string" }, publish: { type: "string" }, help: { type: "boolean" } } }));
    publish = values.publish === undefined ? undefined : parsePublish(values.publish);
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
  await buildBrowserGrading(resolve(values.out), lessons, (line) => console.log(line), { publish });
  return 0;
}

process.exitCode = await main();
