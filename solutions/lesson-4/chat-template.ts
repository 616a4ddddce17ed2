/**
 * Lesson 4 — The chat template: MiniMind's jinja `chat_template` (model/tokenizer_config.json,
 * the same string trainer/train_tokenizer.py writes), as a TypeScript function.
 *
 * Read lessons/04-tokenizer.md first; the function cites the template lines it mirrors at commit
 * d65ef2c (jingyaogong/minimind).
 */

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
  // BEGIN SOLUTION
  const text = (m: ChatMessage | undefined) => (typeof m?.content === "string" ? m.content : "");
  let out = "";
  const firstIsSystem = messages[0]?.role === "system";
  if (options.tools && options.tools.length > 0) {
    out += "<|im_start|>system\n";
    if (firstIsSystem) out += text(messages[0]) + "\n\n";
    out += "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n";
    out += "You are provided with function signatures within <tools></tools> XML tags:\n<tools>";
    for (const tool of options.tools) out += "\n" + pythonJson(tool);
    out += "\n</tools>\n\nFor each function call, return a json object with function name and arguments within ";
    out += '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';
  } else if (firstIsSystem) {
    out += `<|im_start|>system\n${text(messages[0])}<|im_end|>\n`;
  }
  messages.forEach((m, i) => {
    let content = text(m);
    if (m.role === "user" || (m.role === "system" && i > 0)) {
      out += `<|im_start|>${m.role}\n${content}<|im_end|>\n`;
    } else if (m.role === "assistant") {
      let reasoning = "";
      if (typeof m.reasoning_content === "string") reasoning = m.reasoning_content;
      else if (content.includes("</think>")) {
        reasoning = trimStart(trimEnd(content.split("</think>")[0]).split("<think>").at(-1)!);
        content = trimStart(content.split("</think>").at(-1)!);
      }
      out += `<|im_start|>assistant\n<think>\n${trimStart(trimEnd(reasoning))}\n</think>\n\n${trimStart(content)}`;
      (m.tool_calls ?? []).forEach((call, j) => {
        if ((j === 0 && content) || j > 0) out += "\n";
        const fn = call.function ?? call;
        const args = typeof fn.arguments === "string" ? fn.arguments : pythonJson(fn.arguments);
        out += `<tool_call>\n{"name": "${fn.name ?? ""}", "arguments": ${args}}\n</tool_call>`;
      });
      out += "<|im_end|>\n";
    } else if (m.role === "tool") {
      if (i === 0 || messages[i - 1].role !== "tool") out += "<|im_start|>user";
      out += `\n<tool_response>\n${content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1].role !== "tool") out += "<|im_end|>\n";
    }
  });
  if (options.addGenerationPrompt) {
    out += "<|im_start|>assistant\n";
    out += options.openThinking === true ? "<think>\n" : "<think>\n\n</think>\n\n";
  }
  return out;
  // END SOLUTION
}

// BEGIN SOLUTION
/** Python's str.lstrip('\n'). */
const trimStart = (s: string) => s.replace(/^\n+/, "");
/** Python's str.rstrip('\n'). */
const trimEnd = (s: string) => s.replace(/\n+$/, "");
// END SOLUTION
