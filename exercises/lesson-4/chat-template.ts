/**
 * Lesson 4 — The chat template: MiniMind's jinja `chat_template` (model/tokenizer_config.json,
 * the same string trainer/train_tokenizer.py writes), as a TypeScript function.
 *
 * Read lessons/04-tokenizer.md first; the function cites the template lines it mirrors at commit
 * d65ef2c (jingyaogong/minimind).
 */
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-4`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** A tool call as MiniMind's data holds it: OpenAI's `{ function: {...} }` wrapper or bare. */
export interface ToolCall {
  name?: string;
  arguments?: unknown;
  function?: { name: string; arguments: unknown };
}

/** One message of a conversation. */
export interface ChatMessage {
  role: string;
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: ToolCall[] | null;
}

export interface ChatOptions {
  /** Tool schemas (any JSON); a non-empty list adds the tools block to the system turn. */
  tools?: unknown[] | null;
  /** End with the assistant's opening so the model writes the reply. */
  addGenerationPrompt?: boolean;
  /** With `addGenerationPrompt`: open a think block (`true`) instead of an empty closed one. */
  openThinking?: boolean;
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)`, which the template's `tojson` filter calls in
 * Hugging Face transformers: ", " and ": " separators, keys in insertion order, non-ASCII kept.
 */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  if (value === undefined) return "null";
  if (typeof value === "number" && !Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  return JSON.stringify(value);
}

/**
 * The prompt text MiniMind's tokenizer renders for `messages`, character for character: a first
 * system message (with the tools block when `tools` is non-empty), user turns, assistant turns that
 * always carry a think block (from `reasoning_content`, else split out of `content`), their tool
 * calls (arguments as given when a string, else as JSON), runs of tool messages in one user turn,
 * and the generation prompt. Messages of other roles render nothing; missing content is "".
 *
 * Align with: model/tokenizer_config.json:333 (trainer/train_tokenizer.py:100 writes the same string)
 */
export function renderChat(messages: ChatMessage[], options: ChatOptions = {}): string {
  throw new NotImplementedError("lesson-4", "renderChat");
}
