/**
 * Lesson 26 — MiniMind's reward for one agent trajectory (trainer/train_agent.py:183-239 @ d65ef2c),
 * without the reward model (the course has none): tag balance, then either the format rules of a
 * plain answer or, when the model called tools, the tool-count gap and the ground-truth check.
 *
 * MiniMind's rules are Python: `str.strip()` and `len()` are Python's (code points), and `\w` in
 * its number pattern is Unicode-aware. Read lessons/26-tool-use-agentic-rl.md first.
 */
import { repetitionPenalty } from "../lesson-25/reward.js";
import { parseToolCalls } from "./tool-calls.js";

/** A tool schema as MiniMind's data holds it (OpenAI's function format); only the name is read. */
export interface ToolSchema {
  type?: string;
  function: { name: string; [key: string]: unknown };
}

/** What a multi-turn rollout produced, as the reward sees it. */
export interface AgentTrajectory {
  /** The text of the last generation (MiniMind's `response`). */
  completion: string;
  /** The text of every generation, in order (the last one equals `completion`). */
  turnOutputs: string[];
  /** True when the last allowed turn still called a tool (the answer never came). */
  unfinished: boolean;
}

/** Python's truth value of a JSON value: "", 0, false, null, [] and {} are false. */
export function pyTruthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === "object") return Object.keys(v).length > 0;
  return Boolean(v);
}

/**
 * Whether a call's arguments are complete, per tool: MiniMind's CHECK_ARGS (train_agent.py:67-74),
 * plus the course's `calculate` tool, checked like MiniMind's `calculate_math`.
 */
export const CHECK_ARGS: Readonly<Record<string, (a: Record<string, unknown>) => boolean>> = {
  calculate: (a) => pyTruthy(a.expression),
  calculate_math: (a) => pyTruthy(a.expression),
  unit_converter: (a) => a.value !== undefined && a.value !== null && pyTruthy(a.from_unit) && pyTruthy(a.to_unit),
  get_current_weather: (a) => pyTruthy(a.location),
  get_current_time: () => true,
  get_exchange_rate: (a) => pyTruthy(a.from_currency) && pyTruthy(a.to_currency),
  translate_text: (a) => pyTruthy(a.text) && pyTruthy(a.target_language),
};

// BEGIN SOLUTION
const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "gu");
/** Python's `(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.])` with a Unicode \w (digits kept to ASCII, see the lesson). */
const NUMBER = /(?<![\p{L}\p{N}_.])[-+]?[0-9]+(?:\.[0-9]+)?(?![\p{L}\p{N}_.])/gu;
const WHOLE_NUMBER = /^[-+]?[0-9]+(?:\.[0-9]+)?$/u;
const THINK_END = "</think>";

const pyStrip = (s: string): string => s.replace(STRIP, "");
const pyLen = (s: string): number => [...s].length;
/** Python's `s.count(sub)`: non-overlapping occurrences. */
const count = (s: string, sub: string): number => s.split(sub).length - 1;
/** Python's `s.split(sep, 1)[-1]` when `sep` is in `s`. */
const afterFirst = (s: string, sep: string): string => s.slice(s.indexOf(sep) + sep.length);
const clip3 = (r: number): number => Math.max(Math.min(r, 3.0), -3.0);

/** MiniMind's validate_gt_in_text: the ground-truth items found in `text`, as text or as a number. */
function verifiedItems(text: string, gt: string[]): Set<string> {
  const lower = text.toLowerCase();
  const nums = (text.replaceAll(",", "").match(NUMBER) ?? []).map(Number);
  const found = new Set<string>();
  for (const g of gt) {
    const s = pyStrip(g);
    const asNumber = s.replaceAll(",", "");
    const byText = s !== "" && lower.includes(s.toLowerCase());
    const byNumber = WHOLE_NUMBER.test(asNumber) && nums.some((n) => Math.abs(Number(asNumber) - n) < 1e-6);
    if (byText || byNumber) found.add(g);
  }
  return found;
}
// END SOLUTION

/**
 * The reward of one trajectory, clipped to [−3, 3]. It is MiniMind's: −0.5 per unbalanced
 * `<tool_call>` tag in each turn's answer; with no tool call, the length and think rules; with tool
 * calls, +0.5 when the valid calls match `gt`'s count (−0.5 per call of difference otherwise, an
 * invalid call counting twice), 2.5 × the share of `gt` found in the final answer, −0.5 when
 * unfinished; always minus lesson 25's `repetitionPenalty`. A valid call names a tool of `tools`
 * whose CHECK_ARGS accepts its arguments. `gt` may be empty; `tools` may be null.
 *
 * Align with: trainer/train_agent.py:183-239
 */
export function agentReward(trajectory: AgentTrajectory, gt: string[], tools: ToolSchema[] | null): number {
  // BEGIN SOLUTION
  const { completion, turnOutputs, unfinished } = trajectory;
  let reward = 0;
  const turnAnswers = turnOutputs.map((t) => (t.includes(THINK_END) ? pyStrip(afterFirst(t, THINK_END)) : pyStrip(t)));
  let answer = turnAnswers.length > 0 ? turnAnswers[turnAnswers.length - 1] : pyStrip(completion);
  const validNames = new Set((tools ?? []).map((t) => t.function.name));
  const calls = turnAnswers.flatMap((t) => parseToolCalls(t));
  for (const t of turnAnswers) reward -= 0.5 * Math.abs(count(t, "<tool_call>") - count(t, "</tool_call>"));

  if (calls.length === 0) {
    const length = pyLen(pyStrip(completion));
    reward += length >= 5 && length <= 800 ? 0.5 : -0.5;
    if (completion.includes(THINK_END)) {
      const think = completion.slice(0, completion.indexOf(THINK_END));
      const thinkLength = pyLen(pyStrip(think));
      reward += thinkLength >= 20 && thinkLength <= 300 ? 1.0 : -0.5;
      reward += count(completion, THINK_END) === 1 ? 0.25 : -0.25;
      answer = pyStrip(afterFirst(completion, THINK_END));
    }
    return clip3(reward - repetitionPenalty(answer));
  }

  const valid = calls.filter((c) => validNames.has(c.name) && CHECK_ARGS[c.name] !== undefined && CHECK_ARGS[c.name](c.arguments)).length;
  const gap = Math.abs(valid - gt.length) + Math.max(0, calls.length - valid);
  reward += gap === 0 ? 0.5 : -0.5 * gap;
  const finalText = unfinished ? "" : answer.includes("</tool_call>") ? answer.slice(answer.lastIndexOf("</tool_call>") + "</tool_call>".length) : answer;
  if (gt.length > 0) reward += (2.5 * verifiedItems(finalText, gt).size) / gt.length;
  if (unfinished) reward -= 0.5;
  return clip3(reward - repetitionPenalty(finalText !== "" ? finalText : answer));
  // END SOLUTION
}
