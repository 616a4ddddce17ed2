/**
 * Rewards of the RL runs: verifiable, computed by code from the response text.
 *
 * - `taskReward`: 1 for an exact-match answer (lib/rl/tasks.ts), else 0, minus lesson 25's
 *   `repetitionPenalty` of the response when asked (MiniMind subtracts it from every reward,
 *   trainer/train_grpo.py:31-35, 56); or, with `partial`, the share of list items in the right
 *   place (a denser signal for sort: "41, 75, 47" for "41, 47, 75" earns 1/3).
 * - lesson 25's `ruleReward` (MiniMind's length/think rules) is offered beside it; it is not the
 *   default because its 20-800 character rule punishes a correct two-character answer.
 * Each returns one number a response; `rewardStats` summarises a batch for the step's log line.
 */
import { exactMatch, extractAnswer } from "./task-answers.js";

/** The lesson functions rewards use, resolved by the caller. */
export interface RewardFunctions {
  repetitionPenalty: (text: string, n?: number, cap?: number) => number;
  ruleReward: (response: string) => number;
}

export type RewardKind = "task" | "task+rep" | "rule+task" | "partial";

export const REWARD_KINDS: readonly RewardKind[] = ["task", "task+rep", "rule+task", "partial"];

/**
 * The share of the expected answer's comma-separated items that the response's answer has in the
 * same place, over the longer of the two lists: "41, 75, 47" for "41, 47, 75" → 1/3, an extra item
 * costs a share. 1 exactly when the answers match; a one-item answer scores like exact match.
 */
export function partialCredit(response: string, answer: string): number {
  const got = extractAnswer(response).split(",").map((x) => x.trim());
  const want = answer.split(",").map((x) => x.trim());
  const same = want.filter((w, i) => got[i] === w).length;
  return same / Math.max(got.length, want.length);
}

/** The reward of one response to a prompt whose exact answer is `answer`. */
export function taskReward(kind: RewardKind, fns: RewardFunctions, response: string, answer: string): number {
  if (kind === "partial") return partialCredit(response, answer);
  const correct = exactMatch(response, answer);
  if (kind === "task") return correct;
  if (kind === "task+rep") return correct - fns.repetitionPenalty(response);
  return correct + fns.ruleReward(response);
}

/** Mean and population standard deviation of a batch's rewards (0 and 0 for none). */
export function rewardStats(rewards: readonly number[]): { mean: number; std: number } {
  if (rewards.length === 0) return { mean: 0, std: 0 };
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const variance = rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length;
  return { mean, std: Math.sqrt(variance) };
}
