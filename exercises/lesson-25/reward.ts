/**
 * Lesson 25 — the rule-based part of MiniMind's PPO/GRPO reward: a repetition penalty on word
 * n-grams and the length and think-block rules. MiniMind adds a reward model's score on top
 * (clamped to [−3, 3], trainer/trainer_utils.py:177); that part needs a 1.8B model and is left out here.
 *
 * The rules are written in Python; a faithful port must agree with Python on three things
 * JavaScript does differently: `\w` (Unicode-aware in Python), `str.strip()` (Python's whitespace
 * set, given as PY_WHITESPACE in python-text.ts) and `len()` (code points, not UTF-16 units).
 * Read lessons/25-reward-logprob-kl.md first; MiniMind is cited at commit d65ef2c.
 */
import { PY_WHITESPACE } from "./python-text.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-25`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * How repetitive a text is, as a penalty in [0, cap].
 *
 * Tokens: the lower-cased text split by Python's regex `\w+|[^\w\s]` (a run of word characters of
 * any script, or one other non-space character). With G the number of n-grams of consecutive tokens
 * and U the number of distinct ones:
 *   penalty = min(cap, (G − U)·cap·2 / G),   and 0 when there is no n-gram (fewer than n tokens).
 * A text whose n-grams are half repeats already reaches the cap.
 *
 * Align with: trainer/train_ppo.py:29-32
 */
export function repetitionPenalty(text: string, n = 3, cap = 0.5): number {
  throw new NotImplementedError("lesson-25", "repetitionPenalty");
}

/**
 * The rule-based reward of one response (MiniMind's `calculate_rewards` without the reward model).
 *
 *   +0.5 if 20 ≤ len(response.strip()) ≤ 800, else −0.5
 *   if the response contains "</think>": split at the first one into thinking | answer;
 *     +1.0 if 20 ≤ len(thinking.strip()) ≤ 300, else −0.5   (thinking includes any "<think>" tag)
 *     +0.25 if "</think>" occurs exactly once, else −0.25
 *     answer = answer.strip()
 *   otherwise the answer is the whole response
 *   − repetitionPenalty(answer)
 * Lengths are Python's: code points of the text with Python's whitespace stripped from both ends.
 * MiniMind accumulates the sum in a float32 tensor; here it is a JavaScript number (the two agree
 * to float32 rounding).
 *
 * Align with: trainer/train_ppo.py:60-67
 */
export function ruleReward(response: string): number {
  throw new NotImplementedError("lesson-25", "ruleReward");
}
