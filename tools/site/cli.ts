/**
 * npm run site [-- --with-solutions] [--out <dir>] [--serve] [--port <n>] [--no-workspace | --workspace-lessons <ids>] [--publish all|<ids>]
 *
 * Renders every written lesson to a static site in site/ (ignored by git), the Chinese versions
 * (lessons/zh/) under site/zh/, each graded lesson with its workspace page (write, grade and get
 * hints in the browser: workspace.ts), whose grading folder (workspace-build.ts) takes a few
 * minutes to build; --no-workspace leaves the workspaces out, --workspace-lessons builds only those. --with-solutions adds each lesson's reference solution behind a
 * collapsed block: for instructors who publish them on purpose, and lets the training pages
 * (grading/train.html, grpo.html) ship every reference; --publish ships only those lessons' to the
 * training pages. --serve then serves the folder on localhost.
 */
import { join, relative } from "node:path";
import { gradedLessons, ROOT } from "../../grader/engine/paths.js";
import { parseArgs, runCommand, UsageError } from "../loop/cli-support.js";
import { BROWSER_LESSONS } from "../browser/lessons.js";
import { parsePublish } from "../browser/train-build.js";
import { buildSite, outDirProblem } from "./build.js";
import { workspacePlan } from "./workspace.js";
import { serveStatic } from "./serve.js";

const USAGE = `usage: npm run site -- [--with-solutions] [--out <dir>] [--serve] [--port <n>] [--no-workspace | --workspace-lessons <ids>] [--publish all|<ids>]

  npm run site                        build the site into site/
  npm run site -- --serve             build it, then serve it on http://127.0.0.1:4173/
  npm run site -- --serve --port 8080 another port
  npm run site -- --with-solutions    also publish the reference solutions (collapsed)
  npm run site -- --no-workspace      without the workspace pages (fast: no grading folder)
  npm run site -- --workspace-lessons lesson-3,lesson-9   workspaces graded in the page for these lessons only
  npm run site -- --publish lesson-9,lesson-14           the training pages may run these lessons' references
                                      (--with-solutions: every lesson's; default: a student edition's published ones)`;

const DEFAULT_PORT = 4173;

/** The lessons whose workspaces grade in the page (undefined: no workspaces), from --no-workspace and --workspace-lessons. */
function workspaceLessons(none: boolean, list: string | undefined): readonly string[] | undefined {
  if (none && list !== undefined) throw new UsageError("give --no-workspace or --workspace-lessons, not both");
  if (none) return undefined;
  // A student edition may hold only some lessons: the browser grades those it has.
  const here = BROWSER_LESSONS.filter((l) => gradedLessons().includes(l));
  if (list === undefined) return here.length > 0 ? here : undefined;
  const ids = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = ids.filter((l) => !here.includes(l));
  if (ids.length === 0 || unknown.length > 0) throw new UsageError(`--workspace-lessons: ${unknown.join(", ") || "no lesson given"}: the browser grades ${here.join(", ")} here (tools/browser/lessons.ts says why not the others)`);
  return ids;
}

/** The references the training pages may ship: --publish's, every lesson's with --with-solutions, else the default (undefined). */
function publishedReferences(text: string | undefined, withSolutions: boolean, workspaces: boolean): readonly string[] | "all" | undefined {
  if (text === undefined) return withSolutions ? "all" : undefined;
  if (!workspaces) throw new UsageError("--publish is for the training pages of the grading folder, which --no-workspace leaves out");
  try {
    return parsePublish(text);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: ["--with-solutions", "--serve", "--no-workspace"], values: ["--out", "--port", "--workspace-lessons", "--publish"] });
  if (args.positional.length > 0) throw new UsageError(`unexpected argument ${args.positional[0]}`);
  const portText = args.values.get("--port");
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number (0-65535), not "${portText}"`);
  if (portText !== undefined && !args.flags.has("--serve")) throw new UsageError("--port goes with --serve");
  const outDir = args.values.get("--out") ?? join(ROOT, "site");
  const problem = outDirProblem(outDir);
  if (problem) throw new UsageError(problem);
  const workspace = workspaceLessons(args.flags.has("--no-workspace"), args.values.get("--workspace-lessons"));
  const publish = publishedReferences(args.values.get("--publish"), args.flags.has("--with-solutions"), workspace !== undefined);
  const t0 = Date.now();
  const result = buildSite({ outDir, withSolutions: args.flags.has("--with-solutions"), workspace: workspace && workspacePlan(workspace) });
  const where = relative(process.cwd(), result.outDir) || ".";
  console.log(`built ${result.pages.length} page(s) (${result.lessons.length} lesson(s), ${result.zhLessons.length} in Chinese under zh/${args.flags.has("--with-solutions") ? ", with solutions" : ""}) into ${where}/ in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const p of result.problems) console.warn(`warning: ${p}`);
  if (workspace) {
    const t1 = Date.now();
    const { buildWorkspaceGrading } = await import("./workspace-build.js");
    const { grading } = await buildWorkspaceGrading(result.outDir, workspace, (line) => console.log(`  ${line}`), publish);
    console.log(`built the workspaces' grading folder (${workspace.length} lesson(s) graded in the page, ${(grading.bytes / 2 ** 20).toFixed(1)} MiB) into ${where}/grading/ in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  }
  if (!args.flags.has("--serve")) return 0;
  let server;
  try {
    server = await serveStatic(result.outDir, port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE") throw new UsageError(`port ${port} is in use: choose another with --port`);
    throw err;
  }
  console.log(`serving ${where}/ at ${server.url}  (Ctrl-C to stop)`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await server.close();
  return 0;
}

await runCommand(USAGE, main);
