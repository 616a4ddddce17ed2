/**
 * One chat completion: OpenAI request → chat template → token ids → generation → text → reply,
 * streamed as server-sent events or returned whole. This is where the API meets the model, the
 * part of MiniMind's scripts/serve_openai_api.py:105-234 that is not HTTP.
 */
import { decodeText, tokenBudget } from "./decode-text.js";
import type { GenerationEngine } from "./engine.js";
import { ApiError, modelNotFound } from "./errors.js";
import type { LogprobEntry } from "./logprobs.js";
import { DeltaTracker, replyView } from "./reply-stream.js";
import type { ChatRequest } from "./schema.js";
import type { ChatTokenizer } from "./tokenizer.js";

/** The chat message shape the template reads (lesson 4's renderChat). */
export interface TemplateMessage {
  role: string;
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: Array<{ function: { name: string; arguments: unknown } }> | null;
}

export type RenderChat = (messages: TemplateMessage[], opts: { tools?: unknown[] | null; addGenerationPrompt?: boolean; openThinking?: boolean }) => string;

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ParseAssistantText = (text: string, idPrefix?: string) => { content: string; reasoningContent: string | null; toolCalls: ToolCall[] | null };

/** What a completion needs besides the request. */
export interface CompletionContext {
  engine: GenerationEngine;
  tokenizer: ChatTokenizer;
  renderChat: RenderChat;
  parseAssistantText: ParseAssistantText;
  modelId: string;
  /** Other names a request may give the model by. */
  modelAliases: readonly string[];
  contextLength: number;
  /** A fresh number for ids and default seeds. */
  nextSerial: () => number;
}

/** Where a completion's output goes. */
export interface CompletionSink {
  /** Streaming: one event's JSON (the caller writes `data: …\n\n`). */
  event?: (chunk: object) => void;
  /** Called when the client is gone: register the cancel function. */
  onAbort: (cancel: () => void) => void;
}

/** The request's messages as the template reads them (content parts joined, developer as system). */
function templateMessages(req: ChatRequest): TemplateMessage[] {
  return req.messages.map((m) => ({
    role: m.role === "developer" ? "system" : m.role,
    content: Array.isArray(m.content) ? m.content.map((p) => p.text ?? "").join("") : (m.content ?? ""),
    reasoning_content: m.reasoning_content ?? null,
    tool_calls: m.tool_calls?.map((c) => ({ function: { name: c.function.name, arguments: c.function.arguments ?? {} } })) ?? null,
  }));
}

const wantsThinking = (r: ChatRequest) => Boolean(r.open_thinking || r.chat_template_kwargs?.open_thinking || r.chat_template_kwargs?.enable_thinking);

export interface CompletionResult {
  /** The whole response for a non-streaming request (undefined when streamed). */
  body?: object;
}

/** Whether the request's tools are offered: 400 for a tool_choice this server cannot honour (a model cannot be forced to call). */
function offersTools(req: ChatRequest): boolean {
  const choice = req.tool_choice ?? "auto";
  const refuse = (what: string) =>
    new ApiError(400, `Invalid value for 'tool_choice': ${what} is not supported: this server cannot force the model to call a tool. Use 'auto' or 'none'.`, "invalid_request_error", "tool_choice", "unsupported_value");
  if (typeof choice === "object") throw refuse("naming a function");
  if (choice === "required") throw refuse("'required'");
  if (choice !== "auto" && choice !== "none") throw new ApiError(400, `Invalid value for 'tool_choice': '${choice}'. Supported values are: 'none', 'auto'.`, "invalid_request_error", "tool_choice", "invalid_value");
  return choice === "auto" && req.tools != null && req.tools.length > 0;
}

/** 400 for a response_format other than text: nothing constrains this model's output to JSON. */
function checkResponseFormat(req: ChatRequest): void {
  const type = req.response_format?.type ?? "text";
  if (type !== "text") {
    throw new ApiError(400, `Invalid value for 'response_format.type': '${type}' is not supported: this server cannot constrain the model's output to JSON. Use 'text'.`, "invalid_request_error", "response_format", "unsupported_value");
  }
}

/** The prompt's token ids for `req` (template with the offered tools and thinking switch), and those two choices. */
export function chatPrompt(ctx: CompletionContext, req: ChatRequest): { promptIds: number[]; tools: boolean; thinking: boolean } {
  const tools = offersTools(req);
  const thinking = wantsThinking(req);
  const prompt = ctx.renderChat(templateMessages(req), { tools: tools ? req.tools : null, addGenerationPrompt: true, openThinking: thinking });
  return { promptIds: ctx.tokenizer.encode(prompt), tools, thinking };
}

/** Runs one chat completion; throws ApiError for requests it refuses (before anything is sent). */
export async function runCompletion(ctx: CompletionContext, req: ChatRequest, sink: CompletionSink): Promise<CompletionResult> {
  if (req.model !== ctx.modelId && !ctx.modelAliases.includes(req.model)) throw modelNotFound(req.model, ctx.modelId);
  checkResponseFormat(req);
  const { promptIds, tools, thinking } = chatPrompt(ctx, req);
  const asked = req.max_completion_tokens ?? req.max_tokens ?? null;
  const maxNewTokens = tokenBudget(ctx.contextLength, promptIds.length, asked, req.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens", "messages");
  const serial = ctx.nextSerial();
  const id = `chatcmpl-${Date.now().toString(36)}${serial}`;
  const created = Math.floor(Date.now() / 1000);
  const tracker = new DeltaTracker();
  const chunk = (delta: object, finish: string | null = null, lp: LogprobEntry[] | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: ctx.modelId,
    choices: [{ index: 0, delta, ...(req.logprobs ? { logprobs: lp && { content: lp } } : {}), finish_reason: finish }],
  });
  // The first event goes out with the first token, so a stream's first byte is its first token.
  let roleSent = false;
  const sendRole = () => {
    if (roleSent || !sink.event) return;
    roleSent = true;
    sink.event(chunk({ role: "assistant", content: "" }));
  };

  const run = await decodeText(
    ctx.engine,
    ctx.tokenizer,
    { promptIds, maxNewTokens, temperature: req.temperature, topP: req.top_p, seed: req.seed ?? serial, stop: req.stop, logprobs: req.logprobs ? (req.top_logprobs ?? 0) : null },
    {
      onAbort: sink.onAbort,
      onText: (shown, entry) => {
        sendRole();
        if (!sink.event) return;
        const d = tracker.next(replyView(shown, thinking, false));
        // A token's logprobs ride on the first chunk it produces (an empty delta when its text must wait).
        if (d.reasoning) sink.event(chunk({ reasoning_content: d.reasoning }, null, entry && [entry]));
        if (d.content) sink.event(chunk({ content: d.content }, null, d.reasoning ? null : entry && [entry]));
        if (entry && !d.reasoning && !d.content) sink.event(chunk({}, null, [entry]));
      },
    },
  );
  if (run.gone) return {};
  const { text, ids, logprobs } = run;
  // One view of the whole text for both kinds of reply: what the stream sent adds up to it (with
  // open_thinking and no </think>, all of it is thinking, as it was streamed).
  const view = replyView(text, thinking, true, run.stopped);
  const toolCalls = tools ? ctx.parseAssistantText(text, `call_${id.slice("chatcmpl-".length)}`).toolCalls : null;
  const finish = toolCalls ? "tool_calls" : run.reason === "length" && !run.stopped ? "length" : "stop";
  const usage = { prompt_tokens: promptIds.length, completion_tokens: ids.length, total_tokens: promptIds.length + ids.length };
  if (sink.event) {
    sendRole();
    const d = tracker.next(view);
    if (d.reasoning) sink.event(chunk({ reasoning_content: d.reasoning }));
    if (d.content) sink.event(chunk({ content: d.content }));
    if (toolCalls) sink.event(chunk({ tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }));
    sink.event(chunk({}, finish));
    if (req.stream_options?.include_usage) sink.event({ id, object: "chat.completion.chunk", created, model: ctx.modelId, choices: [], usage });
    return {};
  }
  // OpenAI's assistant message with tool calls and no text has content null.
  const message: Record<string, unknown> = { role: "assistant", content: toolCalls && view.content === "" ? null : view.content };
  if (view.reasoning) message.reasoning_content = view.reasoning;
  if (toolCalls) message.tool_calls = toolCalls;
  return { body: { id, object: "chat.completion", created, model: ctx.modelId, choices: [{ index: 0, message, finish_reason: finish, logprobs: req.logprobs ? { content: logprobs } : null }], usage } };
}
