/**
 * Writes the task SFT file the RL runs start from: every record of datasets/corpus/rl.jsonl of the
 * chosen kinds as a two-message conversation (question, bare answer), MiniMind's SFT format.
 *
 *   node --import tsx tools/rl/task-sft.ts [--task add,count|all] [--out runs/rl-task/sft.jsonl]
 *   npm run train -- sft --data runs/rl-task/sft.jsonl --out runs/rl-sft …
 *
 * rl-heldout.jsonl is never written: it is what the RL runs measure accuracy on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../../grader/engine/paths.js";
import { loadTasks, parseTaskKinds, RL_TRAIN, taskSftLine } from "../../lib/rl/tasks.js";
import { shown } from "../../lib/train/data.js";
import { TrainError } from "../../lib/train/errors.js";

try {
  const { values } = parseArgs({ options: { task: { type: "string" }, out: { type: "string" } } });
  const kinds = parseTaskKinds(values.task ?? "all");
  const out = resolve(values.out ?? join(ROOT, "runs", "rl-task", "sft.jsonl"));
  const { records, skipped } = await loadTasks(RL_TRAIN, kinds);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, records.map(taskSftLine).join("\n") + "\n");
  console.log(`Wrote ${records.length} conversations (${kinds.join(", ")}) to ${shown(out)}${skipped ? ` (${skipped} malformed lines skipped)` : ""}`);
} catch (err) {
  if (!(err instanceof TrainError) && !(err instanceof TypeError)) throw err;
  console.error(`task-sft: ${(err as Error).message}`);
  process.exitCode = 2;
}
