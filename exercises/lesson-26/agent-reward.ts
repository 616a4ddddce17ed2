/**
 * Lesson 26 — MiniMind's reward for one agent trajectory (trainer/train_agent.py:183-239 @ d65ef2c),
 * without the reward model (the course has none): tag balance, then either the format rules of a
 * plain answer or, when the model called tools, the tool-count gap and the ground-truth check.
 *
 * MiniMind's rules are Python: `str.strip()` and `len()` are Python's (code points), and `\w` in
 * its number pattern is Unicode-aware. Read lessons/26-tool-use-agentic-rl.md first.
 */
import type * as Lesson25Reward from "../lesson-25/reward.js";
import { parseToolCalls } from "./tool-calls.js";
import { resolveFunction } from "../../lib/resolver.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-26`. Generated from
// solutions/ by `npm run stubs`; edit freely.

// Other lessons' functions, through the course's resolver (lib/resolver.ts): their reference
// solutions, so this lesson grades the same whatever your progress on those.
const { fn: repetitionPenalty } = await resolveFunction<typeof Lesson25Reward.repetitionPenalty>("lesson-25", "repetitionPenalty", { useReference: true });

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
  throw new NotImplementedError("lesson-26", "agentReward");
}
