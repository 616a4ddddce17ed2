/**
 * Lesson 27 — from the model's text to an OpenAI chat message: the thinking block becomes
 * `reasoning_content` and each `<tool_call>` block becomes an entry of `tool_calls`, as MiniMind's
 * server does before it answers (scripts/serve_openai_api.py:83-102 @ d65ef2c).
 *
 * MiniMind's rules are Python: `str.strip()` and `\s` use Python's whitespace (the set lesson 25
 * found, exercises/lesson-25/python-text.ts), and the arguments are re-serialised with
 * `json.dumps`, which writes ", " and ": " between items. Read lessons/27-conversion-api-webui.md first.
 */

/** One entry of an OpenAI message's `tool_calls`. */
export interface ToolCall {
  id: string;
  type: "function";
  function: {
    /** The JSON's `name` value as it is: "" only when the key is missing (a null name stays null, as in Python). */
    name: string;
    /** The JSON's `arguments` value re-serialised as JSON text ("{}" when the key is missing, "null" for null). */
    arguments: string;
  };
}

/** What the assistant said, split the way the OpenAI API returns it. */
export interface ParsedReply {
  /** The answer shown to the user: the text without the thinking and the parsed tool calls. */
  content: string;
  /** The thinking, or null when the text had no thinking block at all. */
  reasoningContent: string | null;
  /** The calls that parsed, in order, or null when none did. */
  toolCalls: ToolCall[] | null;
}

// BEGIN SOLUTION
/** Python 3's whitespace (lesson 25's PY_WHITESPACE): NEL and \x1c-\x1f are in, the BOM is out. */
const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS = `[${PY_WHITESPACE}]`;
const STRIP = new RegExp(`^${WS}+|${WS}+$`, "gu");
const THINK = /<think>([\s\S]*?)<\/think>/u;
const THINK_ALL = new RegExp(`<think>[\\s\\S]*?</think>${WS}*`, "gu");
const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>/gu;

/** Python's `s.strip()`. */
function pyStrip(s: string): string {
  return s.replace(STRIP, "");
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`: ", " between items and ": " after keys.
 * Numbers are written as JavaScript writes them (JSON.parse has already turned 1.0 into 1).
 */
function pyJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** `json.loads` then `call.get(...)`: undefined when the text is not JSON or not an object. */
function parseCall(body: string): { name: unknown; arguments: unknown } | undefined {
  let call: unknown;
  try {
    call = JSON.parse(pyStrip(body));
  } catch {
    return undefined;
  }
  if (call === null || typeof call !== "object" || Array.isArray(call)) return undefined;
  const o = call as Record<string, unknown>;
  return { name: "name" in o ? o.name : "", arguments: "arguments" in o ? o.arguments : {} };
}
// END SOLUTION

/**
 * Splits a reply into content, reasoning and tool calls. Reasoning is the inside of the first
 * `<think>…</think>` (every such block and the whitespace after it leave the content), or, with no
 * `<think>`, everything before the first `</think>`. Each `<tool_call>` block must hold a JSON
 * object; blocks that do not are skipped, yet still number: block i gets the id `${idPrefix}_${i}`.
 * Parsed calls remove every block from the content. Content and reasoning are stripped.
 * `text` may be empty; nothing throws.
 *
 * Align with: scripts/serve_openai_api.py:83-102
 */
export function parseAssistantText(text: string, idPrefix = "call"): ParsedReply {
  // BEGIN SOLUTION
  let rest = text;
  let reasoningContent: string | null = null;
  const think = THINK.exec(rest);
  if (think) {
    reasoningContent = pyStrip(think[1]);
    rest = rest.replace(THINK_ALL, "");
  } else if (rest.includes("</think>")) {
    const at = rest.indexOf("</think>");
    reasoningContent = pyStrip(rest.slice(0, at));
    rest = pyStrip(rest.slice(at + "</think>".length));
  }
  const toolCalls: ToolCall[] = [];
  [...rest.matchAll(TOOL_CALL)].forEach((m, i) => {
    const call = parseCall(m[1]);
    if (!call) return;
    toolCalls.push({ id: `${idPrefix}_${i}`, type: "function", function: { name: call.name as string, arguments: pyJsonDumps(call.arguments) } });
  });
  if (toolCalls.length > 0) rest = rest.replace(TOOL_CALL, "");
  return { content: pyStrip(rest), reasoningContent, toolCalls: toolCalls.length > 0 ? toolCalls : null };
  // END SOLUTION
}
