/**
 * Lesson 27 — from the model's text to an OpenAI chat message: the thinking block becomes
 * `reasoning_content` and each `<tool_call>` block becomes an entry of `tool_calls`, as MiniMind's
 * server does before it answers (scripts/serve_openai_api.py:83-102 @ d65ef2c).
 *
 * MiniMind's rules are Python: `str.strip()` and `\s` use Python's whitespace (the set lesson 25
 * found, exercises/lesson-25/python-text.ts), and the arguments are re-serialised with
 * `json.dumps`, which writes ", " and ": " between items. Read lessons/27-conversion-api-webui.md first.
 */
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-27`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-27", "parseAssistantText");
}
