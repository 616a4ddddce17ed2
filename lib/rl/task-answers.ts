/**
 * The RL tasks' records and answer checks, without files (lib/rl/tasks.ts reads the corpora and
 * re-exports these): what a task prompt is, the answer a response gives, the exact-match check and
 * the task SFT line. The browser's GRPO page runs them too.
 */

/** The kinds rl.jsonl holds (tools/data/generate.ts); `sort` is the one whose held-out questions are new (datasets/README.md). */
export const TASK_KINDS = ["add", "sub", "mul", "reverse", "count", "upper", "length", "sort"] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** One task prompt: the user's question and the exact answer the checker expects. */
export interface TaskRecord {
  question: string;
  answer: string;
  kind: TaskKind;
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
