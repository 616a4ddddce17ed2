/**
 * Lesson 26 — tool use and agentic RL: reading the model's tool calls, and packing a multi-turn
 * trajectory so that only the model's own tokens are trained on (trainer/train_agent.py @ d65ef2c).
 *
 * MiniMind's parser is Python: `str.strip()` uses Python's whitespace (lesson 25's PY_WHITESPACE),
 * and `json.loads` failing is silently skipped. Read lessons/26-tool-use-agentic-rl.md first.
 */
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

// BEGIN SOLUTION
/** Python 3's whitespace (lesson 25's PY_WHITESPACE in exercises/lesson-25/python-text.ts). */
const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "gu");
const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>/gu;

/** Python's `s.strip()`. */
function pyStrip(s: string): string {
  return s.replace(STRIP, "");
}

/** `json.loads(text)`, or undefined where Python raises (the `except: pass` of MiniMind). */
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
// END SOLUTION

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
  // BEGIN SOLUTION
  const calls: ToolCallRequest[] = [];
  for (const m of text.matchAll(TOOL_CALL)) {
    const call = tryJson(pyStrip(m[1]));
    // MiniMind appends any JSON value and calls .get on it later (an error for a list): only objects are calls.
    if (!isObject(call)) continue;
    let args = "arguments" in call ? call.arguments : {};
    if (typeof args === "string") args = tryJson(args) ?? {};
    calls.push({ name: typeof call.name === "string" ? call.name : "", arguments: isObject(args) ? args : {} });
  }
  return calls;
  // END SOLUTION
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
  // BEGIN SOLUTION
  if (!(Number.isInteger(maxTotalLen) && maxTotalLen >= 2)) throw new Error(`maxTotalLen must be an integer ≥ 2, got ${maxTotalLen}`);
  if (promptIds.length === 0) throw new Error("the prompt is empty");
  const responseIds: number[] = [];
  const responseMask: number[] = [];
  const responseLogps: number[] = [];
  turns.forEach((turn, i) => {
    if (turn.ids.length !== turn.logps.length) throw new Error(`turn ${i}: ${turn.ids.length} ids but ${turn.logps.length} log-probs`);
    turn.ids.forEach((id, j) => {
      if (id === padId || id === eosId) return;
      responseIds.push(id);
      responseMask.push(1);
      responseLogps.push(turn.logps[j]);
    });
    for (const id of turn.observation) {
      responseIds.push(id);
      responseMask.push(0);
      responseLogps.push(0);
    }
  });
  let inputIds = [...promptIds, ...responseIds];
  let mask = [...promptIds.map(() => 0), ...responseMask];
  // Entry t predicts inputIds[t + 1]: the prompt's own tokens after the first are predicted with logp 0.
  let oldLogps = [...promptIds.slice(1).map(() => 0), ...responseLogps];
  if (inputIds.length > maxTotalLen) {
    inputIds = inputIds.slice(-maxTotalLen);
    mask = mask.slice(-maxTotalLen);
    oldLogps = oldLogps.slice(-(maxTotalLen - 1));
  }
  const first = mask.indexOf(1);
  return { inputIds, mask, oldLogps, promptLen: first < 0 ? mask.length : first };
  // END SOLUTION
}
