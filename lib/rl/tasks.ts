/**
 * The verifiable tasks of the RL runs: prompts with checkable answers from the course corpora
 * (datasets/corpus/rl.jsonl to train on, rl-heldout.jsonl held out; MiniMind's RLAIF format plus
 * `answer` and `kind`), the exact-match check, and the short task SFT that gives RL a start.
 */
import { join } from "node:path";
import { ROOT } from "../course/paths.js";
import { loadRecords, shown } from "../train/data.js";
import { TrainError } from "../train/errors.js";

export const RL_TRAIN = join(ROOT, "datasets", "corpus", "rl.jsonl");
export const RL_HELD_OUT = join(ROOT, "datasets", "corpus", "rl-heldout.jsonl");

/** The kinds rl.jsonl holds (tools/data/generate.ts); `sort` is the one whose held-out questions are new (datasets/README.md). */
export const TASK_KINDS = ["add", "sub", "mul", "reverse", "count", "upper", "length", "sort"] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** One task prompt: the user's question and the exact answer the checker expects. */
export interface TaskRecord {
  question: string;
  answer: string;
  kind: TaskKind;
}

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

/**
 * The answer a response gives: the text after any `</think>`, trimmed, without a leading
 * "The answer is" and a trailing full stop ("The answer is noollab." → "noollab").
 */
export function extractAnswer(response: string): string {
  const end = response.lastIndexOf("</think>");
  let a = (end >= 0 ? response.slice(end + "</think>".length) : response).trim();
  a = a.replace(/^the answer is\s*/i, "").trim();
  return a.replace(/\.$/, "").trim();
}

/** 1 when the response's answer is exactly the expected one (case matters: "upper" asks for capitals), else 0. */
export function exactMatch(response: string, answer: string): number {
  return extractAnswer(response) === answer ? 1 : 0;
}

/**
 * A task SFT conversation: the question and "The answer is …." (what the checker reads). The phrase
 * puts a space before the first number, so every number of the answer is the same token as in the
 * question (" 41"); a bare "41, 47, 75" would start with the two tokens "4" "1".
 */
export function taskSftLine(t: TaskRecord): string {
  return JSON.stringify({ conversations: [{ role: "user", content: t.question }, { role: "assistant", content: `The answer is ${t.answer}.` }] });
}
