/**
 * The task SFT file the RL runs start from: every record of datasets/corpus/rl.jsonl of the chosen
 * kinds as a two-message conversation (question, "The answer is …."), MiniMind's SFT format, for
 * `npm run train -- sft --data`. rl-heldout.jsonl is never written: the RL runs measure on it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { loadTasks, RL_TRAIN, taskSftLine, type TaskKind } from "./tasks.js";

/** Writes the conversations of `kinds` to `out`; returns how many were written and skipped. */
export async function writeTaskSft(out: string, kinds: readonly TaskKind[]): Promise<{ written: number; skipped: number }> {
  const { records, skipped } = await loadTasks(RL_TRAIN, kinds);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, records.map(taskSftLine).join("\n") + "\n");
  return { written: records.length, skipped };
}
