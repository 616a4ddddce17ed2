/**
 * Prints the RL comparison table from the run.json of each folder given (default runs/grpo-task,
 * runs/ppo-task, runs/dpo-task): held-out exact match before → after, steps, wall time, KL.
 *
 *   node --import tsx tools/rl/compare.ts [DIR …]
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";

interface RunJson {
  stage: string;
  steps: number;
  wallSeconds: number;
  setupSeconds: number;
  settings: { task: string[] };
  accuracy: { before: number; after: number; gainPoints: number };
  last10: { reward: number; klRef: number };
  data: { heldOutPrompts: number };
}

const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2).map((d) => resolve(d)) : ["grpo-task", "ppo-task", "dpo-task"].map((d) => join(ROOT, "runs", d));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log("| run | task | held-out exact match | gain | steps | wall time | KL to reference (last 10 steps) |");
console.log("|---|---|---|---|---|---|---|");
let missing = 0;
for (const d of dirs) {
  const file = join(d, "run.json");
  if (!existsSync(file)) {
    console.error(`(no ${file})`);
    missing++;
    continue;
  }
  const r = JSON.parse(readFileSync(file, "utf8")) as RunJson;
  console.log(
    `| ${r.stage} | ${r.settings.task.join(", ")} (${r.data.heldOutPrompts} held out) | ${pct(r.accuracy.before)} → ${pct(r.accuracy.after)} | ${r.accuracy.gainPoints >= 0 ? "+" : ""}${r.accuracy.gainPoints} | ${r.steps} | ${(r.wallSeconds / 60).toFixed(1)} min (setup ${r.setupSeconds.toFixed(0)} s) | ${r.last10.klRef.toFixed(4)} |`,
  );
}
process.exitCode = missing === dirs.length ? 1 : 0;
