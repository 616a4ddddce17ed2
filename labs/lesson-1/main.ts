/**
 * Lab 1 — the course's own pipeline: every stage with its lessons, MiniMind's script, the command
 * that runs it here (and whether that command exists yet in this copy of the course), and where
 * you stand: which lessons' functions pass, from the saved grades (.course-progress.json; a lesson
 * whose files changed since it was graded says so; `npm run grade` refreshes everything).
 *
 *   npm run lab lesson-1
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOG } from "../../lib/catalog.js";
import { ROOT, casesFile, paths } from "../../grader/engine/paths.js";
import { lessonHash, lessonPassed, readProgress } from "../../tools/loop/progress.js";
import type { Lab } from "../lab.js";
import { STAGES } from "./stages.js";

/** Whether `command` can run in this copy of the course. */
async function commandExists(command: string): Promise<boolean> {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const [, , script, ...rest] = command.split(" ");
  if (!scripts[script]) return false;
  if (script === "lab") return existsSync(join(ROOT, "labs", rest[0], "main.ts"));
  if (script === "train") {
    const index = join(ROOT, "lib", "train", "stages", "index.ts");
    if (!existsSync(index)) return false;
    const { STAGE_NAMES } = (await import(index)) as { STAGE_NAMES: string[] };
    return STAGE_NAMES.includes(rest[1]);
  }
  return true;
}

/** One lesson's state for this learner, in a few characters. */
function lessonState(n: number): string {
  const info = CATALOG.find((l) => l.number === n)!;
  if (!existsSync(join(paths.lessons, info.file))) return `${n} (not written yet)`;
  if (!existsSync(casesFile(info.id))) return `${n} (read)`;
  const record = readProgress().lessons[info.id];
  if (!record) return `${n} (not graded)`;
  if (record.hash !== lessonHash(info.id, record.inputs)) return `${n} (changed since graded)`;
  const fns = Object.values(record.functions);
  if (lessonPassed(record)) return `${n} ✓`;
  return `${n} (${fns.filter((f) => f?.verdict === "passed").length}/${fns.length} pass)`;
}

const lab: Lab = async () => {
  console.log("Lab 1: the pipeline this course builds, stage by stage, and where you stand\n");
  const rows = await Promise.all(
    STAGES.map(async (s) => ({ stage: s.name, lessons: s.lessons.map(lessonState).join(", "), source: s.minimind, command: (await commandExists(s.command)) ? s.command : `${s.command} (not built yet)` })),
  );
  const w = { stage: Math.max(5, ...rows.map((r) => r.stage.length)), source: 28 };
  for (const r of rows) {
    console.log(`${r.stage.padEnd(w.stage)}  lessons ${r.lessons}`);
    console.log(`${" ".repeat(w.stage)}  MiniMind: ${r.source}`);
    console.log(`${" ".repeat(w.stage)}  run: ${r.command}`);
  }
  const graded = CATALOG.filter((l) => existsSync(casesFile(l.id)));
  const passed = graded.filter((l) => {
    const r = readProgress().lessons[l.id];
    return r && r.hash === lessonHash(l.id, r.inputs) && lessonPassed(r);
  });
  console.log(`\nYou pass ${passed.length} of ${graded.length} graded lessons (✓ above).`);
  console.log("✓ = every function passes with your files as they are now; `npm run grade` grades what changed.");
  console.log("Whatever runs a lesson function (labs, training, the server) uses yours once it passes, else the reference.");
};

export default lab;
