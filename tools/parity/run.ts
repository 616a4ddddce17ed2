/**
 * npm run fixtures [lesson-NN …]
 *
 * Regenerates datasets/fixtures/<lesson>.json by running tools/parity/lesson_NN.py with a Python
 * that has PyTorch (Debian: `apt-get install -y python3-torch`, then /usr/bin/python3; or set
 * COURSE_PYTHON). CI never runs this: the fixtures are committed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { ROOT } from "../../grader/engine/paths.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";

const DIR = join(ROOT, "tools", "parity");

function python(): string | undefined {
  const candidates = [process.env.COURSE_PYTHON, "/usr/bin/python3", "python3"].filter((p): p is string => !!p);
  return candidates.find((p) => spawnSync(p, ["-c", "import torch"], { stdio: "ignore" }).status === 0);
}

const scripts = readdirSync(DIR).filter((f) => /^lesson_\d+\.py$/.test(f)).sort();

const USAGE = `usage: npm run fixtures [lesson-NN …]

Regenerates datasets/fixtures/<lesson>.json (all, or the lessons named) with PyTorch: set COURSE_PYTHON
to a Python that has torch. Scripts: ${scripts.join(", ")}`;

function main(argv: string[]): number {
  const { positionals } = parseOptions(argv, {}, { positionals: true });
  let chosen = scripts;
  if (positionals.length > 0) {
    chosen = [];
    for (const a of positionals) {
      const l = findLesson(a);
      const file = l ? `lesson_${l.number}.py` : "";
      if (!l || !existsSync(join(DIR, file))) throw new UsageError(`no fixture script for "${a}": have ${scripts.join(", ")}`);
      chosen.push(file);
    }
  }
  const py = python();
  if (!py) {
    console.error("no Python with torch found: install it (`apt-get install -y python3-torch`) or set COURSE_PYTHON.");
    return 2;
  }
  for (const s of chosen) {
    const r = spawnSync(py, [join(DIR, s)], { stdio: "inherit", cwd: DIR });
    if (r.status !== 0) {
      console.error(`${s} failed (exit ${r.status})`);
      return 1;
    }
  }
  return 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
