/**
 * Lesson 26 — tool use and agentic RL: reading the model's tool calls, and packing a multi-turn
 * trajectory so that only the model's own tokens are trained on (trainer/train_agent.py @ d65ef2c).
 *
 * MiniMind's parser is Python: `str.strip()` uses Python's whitespace (lesson 25's PY_WHITESPACE),
 * and `json.loads` failing is silently skipped. Read lessons/26-tool-use-agentic-rl.md first.
 */
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-26`. Generated from
// solutions/ by `npm run stubs`; edit freely.
/** One tool call as the agent loop uses it: a name and an arguments object. */
export interface ToolCallRequest {
  /** The `name` field when it is a string, else "". */
  name: string;
  /** The `arguments` object (a JSON string of an object is parsed); anything else gives {}. */
  arguments: Record<string, unknown>;
}

/** One generation of a rollout and what the environment answered. */
export interface AgentTurn {
  /** The ids the model generated this turn (may contain pad/EOS ids, which are dropped). */
  ids: number[];
  /** The sampling log-prob of each id in `ids` (same length). */
  logps: number[];
  /** The ids the environment appended after this turn (tool responses, the next prompt); [] if none. */
  observation: number[];
}

/** A packed trajectory, ready for one training row. */
export interface PackedTrajectory {
  /** Prompt, then each turn's kept generated ids and its observation, cut to the last maxTotalLen. */
  inputIds: number[];
  /** 1 on the model's own generated tokens, 0 on prompt and observation tokens; inputIds' length. */
  mask: number[];
  /** inputIds.length − 1 entries: entry t is the old log-prob of inputIds[t + 1] (0 where not generated). */
  oldLogps: number[];
  /** Index of the first 1 in `mask` (mask.length when there is none). */
  promptLen: number;
}

/**
 * The tool calls in a model's text: each `<tool_call>…</tool_call>` block (shortest match, across
 * lines) whose stripped inside is a JSON object, in order. A block that is not JSON, or JSON that is
 * not an object, is skipped. `name` is the object's string `name` (else ""); `arguments` is its
 * `arguments` object, or the object a JSON string there encodes; anything else gives {}.
 * Text without blocks gives []; nothing throws.
 *
 * Align with: trainer/train_agent.py:77-82, 137-141
 */
export function parseToolCalls(text: string): ToolCallRequest[] {
  throw new NotImplementedError("lesson-26", "parseToolCalls");
}

/**
 * Packs a rollout for training: the prompt, then per turn the generated ids that are neither `padId`
 * nor `eosId` (mask 1, their log-probs) and the observation ids (mask 0, old log-prob 0). Prompt
 * tokens have mask 0 and old log-prob 0. A sequence longer than `maxTotalLen` keeps its last
 * `maxTotalLen` ids (and the matching mask and old log-probs). Throws when maxTotalLen < 2, when a
 * turn's ids and logps differ in length, or when the prompt is empty.
 *
 * Align with: trainer/train_agent.py:123-130, 148-152, 255-264
 */
export function agentLossMask(promptIds: number[], turns: AgentTurn[], padId: number, eosId: number, maxTotalLen: number): PackedTrajectory {
  throw new NotImplementedError("lesson-26", "agentLossMask");
}
