/**
 * npm run site [-- --with-solutions] [--out <dir>] [--serve] [--port <n>]
 *
 * Renders every written lesson to a static site in site/ (ignored by git), the Chinese versions
 * (lessons/zh/) under site/zh/. --with-solutions adds each lesson's reference solution behind a
 * collapsed block: for instructors who publish them on purpose. --serve then serves the folder on
 * localhost.
 */
import { join, relative } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import { parseArgs, runCommand, UsageError } from "../loop/cli-support.js";
import { buildSite, outDirProblem } from "./build.js";
import { serveStatic } from "./serve.js";

const USAGE = `usage: npm run site -- [--with-solutions] [--out <dir>] [--serve] [--port <n>]

  npm run site                        build the site into site/
  npm run site -- --serve             build it, then serve it on http://127.0.0.1:4173/
  npm run site -- --serve --port 8080 another port
  npm run site -- --with-solutions    also publish the reference solutions (collapsed)`;

const DEFAULT_PORT = 4173;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), { flags: ["--with-solutions", "--serve"], values: ["--out", "--port"] });
  if (args.positional.length > 0) throw new UsageError(`unexpected argument ${args.positional[0]}`);
  const portText = args.values.get("--port");
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number (0-65535), not "${portText}"`);
  if (portText !== undefined && !args.flags.has("--serve")) throw new UsageError("--port goes with --serve");
  const outDir = args.values.get("--out") ?? join(ROOT, "site");
  const problem = outDirProblem(outDir);
  if (problem) throw new UsageError(problem);
  const t0 = Date.now();
  const result = buildSite({ outDir, withSolutions: args.flags.has("--with-solutions") });
  const where = relative(process.cwd(), result.outDir) || ".";
  console.log(`built ${result.pages.length} page(s) (${result.lessons.length} lesson(s), ${result.zhLessons.length} in Chinese under zh/${args.flags.has("--with-solutions") ? ", with solutions" : ""}) into ${where}/ in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const p of result.problems) console.warn(`warning: ${p}`);
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
