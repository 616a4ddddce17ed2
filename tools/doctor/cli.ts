/**
 * npm run doctor
 *
 * What this machine can run: Node, the npm packages, each TensorFlow.js backend with a timed
 * matMul, free disk, chromium for the browser tests, Python + PyTorch for fixtures, and whether
 * exercises/ matches the stubs. Exits 0 when the essentials are there, 1 otherwise, 2 on a bad
 * argument (it takes none; `--help` prints the usage).
 */
import { parseOptions, runCommand } from "../loop/cli-support.js";
import { runChecks, type Check } from "./checks.js";

const USAGE = `usage: npm run doctor

Checks what this machine can run: Node, the npm packages, each TensorFlow.js backend (a timed matMul),
free disk, chromium for the browser tests, Python + PyTorch for fixtures, and whether exercises/
matches the stubs. Exits 0 when the essentials are there, 1 otherwise.`;

const MARK: Record<Check["verdict"], string> = { ok: "OK     ", warn: "WARN   ", missing: "MISSING" };

await runCommand(USAGE, async () => {
  parseOptions(process.argv.slice(2), {});
  const checks = await runChecks();
  const width = Math.max(...checks.map((c) => c.name.length));
  console.log("npm run doctor: what this machine can run\n");
  for (const c of checks) {
    console.log(`${MARK[c.verdict]}  ${c.name.padEnd(width)}  ${c.detail}`);
    if (c.fix && c.verdict !== "ok") console.log(`${" ".repeat(9 + width + 2)}fix: ${c.fix}`);
  }
  const failed = checks.filter((c) => c.essential && c.verdict === "missing");
  console.log(failed.length === 0 ? "\nThe essentials are there: npm run grade lesson-3 is a good start." : `\nMissing essentials: ${failed.map((c) => c.name).join(", ")}.`);
  return failed.length === 0 ? 0 : 1;
});
