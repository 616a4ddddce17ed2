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
 * How repetitive a text is, as a penalty in [0, cap]: it grows with the share of repeated n-grams
 * of word tokens, and a text whose n-grams are half repeats already reaches the cap.
 *
 * Tokens are those of Python's regex `\w+|[^\w\s]` on the lower-cased text (a run of word
 * characters of any script, or one other non-space character). Fewer than n tokens gives 0.
 *
 * Align with: trainer/train_ppo.py:29-32
 */
export function repetitionPenalty(text: string, n = 3, cap = 0.5): number {
  throw new NotImplementedError("lesson-25", "repetitionPenalty");
}

/**
 * The rule-based reward of one response (MiniMind's `calculate_rewards` without the reward model):
 * the length, thinking-length and single-`</think>` rules of the lesson, minus the answer's
 * `repetitionPenalty`. Lengths are Python's: code points after Python's `str.strip()`.
 *
 * Returns a JavaScript number; MiniMind sums in a float32 tensor (they agree to float32 rounding).
 *
 * Align with: trainer/train_ppo.py:60-67
 */
export function ruleReward(response: string): number {
  throw new NotImplementedError("lesson-25", "ruleReward");
}
