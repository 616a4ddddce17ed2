/**
 * The verifiable tasks of the RL runs: prompts with checkable answers from the course corpora
 * (datasets/corpus/rl.jsonl to train on, rl-heldout.jsonl held out; MiniMind's RLAIF format plus
 * `answer` and `kind`), the exact-match check, and the short task SFT that gives RL a start (the
 * records and checks without files live in task-answers.ts, re-exported here).
 */
import { join } from "node:path";
import { ROOT } from "../course/paths.js";
import { loadRecords, shown } from "../train/data.js";
import { TrainError } from "../train/errors.js";
import { TASK_KINDS, type TaskKind, type TaskRecord } from "./task-answers.js";

export { exactMatch, extractAnswer, TASK_KINDS, taskSftLine, type TaskKind, type TaskRecord } from "./task-answers.js";

export const RL_TRAIN = join(ROOT, "datasets", "corpus", "rl.jsonl");
export const RL_HELD_OUT = join(ROOT, "datasets", "corpus", "rl-heldout.jsonl");

interface RlLine {
  conversations: Array<{ role: string; content: string }>;
  answer: string;
  kind: string;
}

const isRlLine = (v: unknown): string | undefined => {
  const r = v as Partial<RlLine> | null;
  if (!r || !Array.isArray(r.conversations)) return 'no "conversations" list';
  if (!r.conversations.some((m) => m?.role === "user" && typeof m.content === "string")) return "no user message";
  if (typeof r.answer !== "string") return 'no "answer" string';
  return typeof r.kind === "string" ? undefined : 'no "kind" string';
};

/** `--task add,count` (or `all`) as kinds; a TrainError (exit 2) names an unknown one. */
export function parseTaskKinds(spec: string): TaskKind[] {
  if (spec.trim() === "all") return [...TASK_KINDS];
  const kinds = spec.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const k of kinds) if (!(TASK_KINDS as readonly string[]).includes(k)) throw new TrainError(`unknown task kind ${JSON.stringify(k)}: have ${TASK_KINDS.join(", ")} (or all)`, 2);
  if (kinds.length === 0) throw new TrainError("--task names no kind", 2);
  return kinds as TaskKind[];
}

/** The records of an RL file whose kind is in `kinds` (malformed lines skipped and counted). */
export async function loadTasks(path: string, kinds: readonly TaskKind[], limit = Infinity) {
  const read = await loadRecords<RlLine>(path, isRlLine, () => {
    throw new TrainError(`${shown(path)}: RL data is a .jsonl of {"conversations", "answer", "kind"} lines`, 2);
  });
  const records: TaskRecord[] = read.records
    .filter((r) => (kinds as readonly string[]).includes(r.kind))
    .slice(0, limit)
    .map((r) => ({ question: r.conversations.filter((m) => m.role === "user").at(-1)!.content, answer: r.answer, kind: r.kind as TaskKind }));
  return { records, skipped: read.skipped, problems: read.problems };
}

