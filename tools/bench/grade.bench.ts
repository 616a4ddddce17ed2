/**
 * `npm run grade lesson-23` through vitest (the grade project) beside the engine run without
 * vitest (grade-direct.ts), warm, interleaved, median of 7 each: the learner's stubs, as a newcomer
 * first grades them. Whole processes, as a learner starts them. The engine alone skips what the
 * command adds around it (the type check beside grading, the report's extras), so the ratio is an
 * upper bound on what vitest costs.
 */
import { spawnSync } from "node:child_process";
import { ROOT } from "../../grader/engine/paths.js";

function once(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0" }, encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default function gradeBench(): string {
  const variants = [
    // As package.json starts them.
    { label: "npm run grade lesson-23 (vitest)", args: ["tools/loop/with-vitest.mjs", "tools/loop/grade-cli.ts", "lesson-23"] },
    { label: "engine alone, no vitest", args: ["--import", "tsx", "tools/bench/grade-direct.ts", "lesson-23"] },
  ];
  for (const v of variants) once(v.args); // warm: the transform caches, the OS file cache
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < 7; i++) variants.forEach((v, j) => samples[j].push(once(v.args)));
  const medians = samples.map(median);
  return [
    "grade: one lesson's stubs graded from the command line (median of 7, interleaved, warm)",
    ...variants.map((v, j) => `  ${v.label.padEnd(34)} ${(medians[j] / 1000).toFixed(2)} s  ×${(medians[j] / medians[1]).toFixed(2)} vs the engine alone`),
  ].join("\n");
}
