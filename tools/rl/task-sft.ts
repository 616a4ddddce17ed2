/**
 * Writes the task SFT file the RL runs start from (lib/rl/task-sft.ts): rl.jsonl's prompts of the
 * chosen kinds (default sort) as conversations that end in "The answer is ….".
 *
 *   node --import tsx tools/rl/task-sft.ts [--task sort|add,count|all] [--out runs/rl-task/sft.jsonl]
 *   npm run train -- sft --data runs/rl-task/sft.jsonl --out runs/rl-sft …
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "../../grader/engine/paths.js";
import { writeTaskSft } from "../../lib/rl/task-sft.js";
import { parseTaskKinds } from "../../lib/rl/tasks.js";
import { shown } from "../../lib/train/data.js";
import { TrainError } from "../../lib/train/errors.js";

try {
  const { values } = parseArgs({ options: { task: { type: "string" }, out: { type: "string" } } });
  const kinds = parseTaskKinds(values.task ?? "sort");
  const out = resolve(values.out ?? join(ROOT, "runs", "rl-task", "sft.jsonl"));
  const { written, skipped } = await writeTaskSft(out, kinds);
  console.log(`Wrote ${written} conversations (${kinds.join(", ")}) to ${shown(out)}${skipped ? ` (${skipped} malformed lines skipped)` : ""}`);
} catch (err) {
  if (!(err instanceof TrainError) && !(err instanceof TypeError)) throw err;
  console.error(`task-sft: ${(err as Error).message}`);
  process.exitCode = 2;
}
