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

// BEGIN SOLUTION
/** Python's `\w` on str: letters, digits and numerals of any script, and "_". */
const PY_WORD = "\\p{L}\\p{N}_";
/** Python's `re.findall(r"\w+|[^\w\s]", text)`: runs of word characters, or one other non-space character. */
const PY_TOKEN = new RegExp(`[${PY_WORD}]+|[^${PY_WORD}${PY_WHITESPACE}]`, "gu");
const PY_STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "gu");

/** Python's `s.strip()` with no argument. */
function pyStrip(s: string): string {
  return s.replace(PY_STRIP, "");
}

/** Python's `len(s)`: code points, so an emoji counts once (JavaScript's `.length` counts it twice). */
function pyLen(s: string): number {
  return [...s].length;
}

/** 20 ≤ length ≤ max: MiniMind's length windows include both ends. */
function lengthWithin(s: string, max: number): boolean {
  const length = pyLen(pyStrip(s));
  return length >= 20 && length <= max;
}
// END SOLUTION

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
  // BEGIN SOLUTION
  const tokens = text.toLowerCase().match(PY_TOKEN) ?? [];
  const gramCount = tokens.length - n + 1;
  if (gramCount <= 0) return 0;
  const distinct = new Set<string>();
  for (let i = 0; i < gramCount; i++) distinct.add(JSON.stringify(tokens.slice(i, i + n)));
  return Math.min(cap, ((gramCount - distinct.size) * cap * 2) / gramCount);
  // END SOLUTION
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
  // BEGIN SOLUTION
  const closeTag = "</think>";
  let reward = lengthWithin(response, 800) ? 0.5 : -0.5;
  let answer = response;
  const end = response.indexOf(closeTag);
  if (end >= 0) {
    reward += lengthWithin(response.slice(0, end), 300) ? 1.0 : -0.5;
    reward += response.split(closeTag).length - 1 === 1 ? 0.25 : -0.25;
    answer = pyStrip(response.slice(end + closeTag.length));
  }
  return reward - repetitionPenalty(answer);
  // END SOLUTION
}
