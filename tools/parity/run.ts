/**
 * npm run fixtures [lesson-NN …]
 *
 * Regenerates grader/<lesson>/fixture.json by running grader/<lesson>/parity.py with a Python
 * that has PyTorch (Debian: `apt-get install -y python3-torch`, then /usr/bin/python3; or set
 * COURSE_PYTHON), with tools/parity/ (common.py and the shared restatements) on PYTHONPATH. CI never
 * runs this: the fixtures are committed.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { findLesson } from "../../lib/catalog.js";
import { ROOT, gradedLessons, lessonDir } from "../../grader/engine/paths.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";

/** common.py, minimind_data.py, areal_functional.py: what the lessons' scripts share. */
const SHARED = join(ROOT, "tools", "parity");

function python(): string | undefined {
  const candidates = [process.env.COURSE_PYTHON, "/usr/bin/python3", "python3"].filter((p): p is string => !!p);
  return candidates.find((p) => spawnSync(p, ["-c", "import torch"], { stdio: "ignore" }).status === 0);
}

const scriptOf = (lesson: string) => join(lessonDir(lesson), "parity.py");
const lessons = gradedLessons().filter((l) => existsSync(scriptOf(l)));

const USAGE = `usage: npm run fixtures [lesson-NN …]

Regenerates grader/<lesson>/fixture.json (all, or the lessons named) with PyTorch: set COURSE_PYTHON
to a Python that has torch. Lessons with a script (grader/<lesson>/parity.py): ${lessons.join(", ")}`;

function main(argv: string[]): number {
  const { positionals } = parseOptions(argv, {}, { positionals: true });
  let chosen = lessons;
  if (positionals.length > 0) {
    chosen = [];
    for (const a of positionals) {
      const l = findLesson(a);
      if (!l || !lessons.includes(l.id)) throw new UsageError(`no fixture script for "${a}": have ${lessons.join(", ")}`);
      chosen.push(l.id);
    }
  }
  const py = python();
  if (!py) {
    console.error("no Python with torch found: install it (`apt-get install -y python3-torch`) or set COURSE_PYTHON.");
    return 2;
  }
  const env = { ...process.env, PYTHONPATH: [SHARED, process.env.PYTHONPATH].filter(Boolean).join(delimiter) };
  for (const lesson of chosen) {
    const r = spawnSync(py, [scriptOf(lesson)], { stdio: "inherit", cwd: SHARED, env });
    if (r.status !== 0) {
      console.error(`grader/${lesson}/parity.py failed (exit ${r.status})`);
      return 1;
    }
  }
  return 0;
}

await runCommand(USAGE, () => main(process.argv.slice(2)));
