/**
 * Prints the staleness table of issue 12 as markdown from the run.json of each run folder given:
 * async runs (`npm run train -- async --staleness K …`) and, for comparison, synchronous ppo/grpo
 * runs. Columns: staleness K, proximal method, M2PO, held-out exact match before → after (and on
 * the held-out prompts not in the training file), steps, measured wall time, the wall time one
 * generator beside one trainer would need (modelled from the measured per-step times, lib/rl/
 * async-scheduler.ts), KL to the reference and clip fraction over the last 10 steps.
 *
 *   npx tsx tools/rl/staleness-table.ts runs/async-k0 runs/async-k1 runs/async-k4 runs/async-k8 runs/async-k8-m2po runs/ppo-task
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

interface RunJson {
  stage: string;
  steps: number;
  wallSeconds: number;
  settings: { staleness?: number; proxMethod?: string; m2po?: boolean; m2Threshold?: number };
  accuracy: { before: number; after: number; unseenPrompts?: number; unseenBefore?: number | null; unseenAfter?: number | null };
  last10: { klRef: number; clipFraction: number };
  history: Array<{ extra?: Record<string, number> }>;
  async?: { staleness: number; modelledAsyncWallSeconds: number };
}

const USAGE = "usage: npx tsx tools/rl/staleness-table.ts RUN_DIR … (folders holding the run.json of npm run train -- async|ppo|grpo)";

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const sec = (x: number) => `${x.toFixed(0)} s`;

/** One markdown row of the table for run folder `dir` holding `r`. */
export function stalenessRow(dir: string, r: RunJson): string {
  const isAsync = r.async !== undefined;
  const k = isAsync ? String(r.async!.staleness) : "0 (sync)";
  const prox = isAsync ? (r.settings.proxMethod ?? "approx") : "—";
  const m2po = isAsync ? (r.settings.m2po ? `on (τ ${r.settings.m2Threshold})` : "off") : "—";
  const unseen = r.accuracy.unseenBefore != null && r.accuracy.unseenAfter != null ? `${pct(r.accuracy.unseenBefore)} → ${pct(r.accuracy.unseenAfter)} (${r.accuracy.unseenPrompts})` : "—";
  // A synchronous run has nothing to overlap: its modelled time is its measured time.
  const modelled = isAsync ? sec(r.async!.modelledAsyncWallSeconds) : `${sec(r.wallSeconds)} (sync)`;
  const tail = r.history.slice(-10).map((h) => h.extra?.staleness).filter((x): x is number => typeof x === "number");
  const staleness = tail.length ? (tail.reduce((a, b) => a + b, 0) / tail.length).toFixed(2) : "0";
  return `| ${dir} | ${r.stage} | ${k} | ${staleness} | ${prox} | ${m2po} | ${pct(r.accuracy.before)} → ${pct(r.accuracy.after)} | ${unseen} | ${r.steps} | ${sec(r.wallSeconds)} | ${modelled} | ${r.last10.klRef.toFixed(4)} | ${r.last10.clipFraction.toFixed(3)} |`;
}

function main(args: string[]): number {
  if (args.length === 0 || args.includes("--help") || args.includes("-h")) {
    console.error(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  const rows: string[] = [];
  let bad = 0;
  for (const arg of args) {
    const dir = resolve(arg);
    const file = join(dir, "run.json");
    const name = relative(process.cwd(), dir) || ".";
    if (!existsSync(file)) {
      console.error(`${name}: no run.json (run npm run train -- async … --out ${name} first)`);
      bad++;
      continue;
    }
    try {
      const r = JSON.parse(readFileSync(file, "utf8")) as RunJson;
      if (typeof r.stage !== "string" || !r.accuracy || !r.last10 || !Array.isArray(r.history)) throw new Error("not the run.json of an RL run");
      rows.push(stalenessRow(name, r));
    } catch (e) {
      console.error(`${name}/run.json: ${(e as Error).message}`);
      bad++;
    }
  }
  if (rows.length === 0) return 1;
  console.log("| run | stage | staleness K | staleness (last 10, lesson 30) | proximal log-probs | M2PO | held-out exact match | not in training file | steps | wall (measured) | wall, 1 generator ∥ 1 trainer (modelled) | KL to ref (last 10) | clip fraction (last 10) |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log("\nThe modelled wall time is computed from each step's measured generation and training seconds, not measured: on one CPU the scheduler runs them one after the other.");
  return bad > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
