/**
 * `POST /v1/completions`, OpenAI's legacy text completion: the prompt is raw text (no chat
 * template: the model continues it, as a pretrained model does in lesson 7), the reply is the text
 * that follows, untrimmed, streamed as `text_completion` chunks or returned whole. MiniMind's server
 * has only the chat route; vLLM and llama.cpp's server offer both.
 */
import type { CompletionContext, CompletionResult, CompletionSink } from "./completion.js";
import { decodeText, tokenBudget } from "./decode-text.js";
import { ApiError, modelNotFound } from "./errors.js";
import type { LogprobEntry } from "./logprobs.js";
import type { TextCompletionRequest } from "./schema.js";

/** OpenAI's default max_tokens for this route. */
const DEFAULT_MAX_TOKENS = 16;

/** The legacy logprobs object: parallel arrays of tokens, their logprobs, the top alternatives, and where each token starts in the text. */
function legacyLogprobs(entries: LogprobEntry[]) {
  const offsets: number[] = [];
  let at = 0;
  for (const e of entries) {
    offsets.push(at);
    at += e.token.length;
  }
  return {
    tokens: entries.map((e) => e.token),
    token_logprobs: entries.map((e) => e.logprob),
    top_logprobs: entries.map((e) => Object.fromEntries(e.top_logprobs.map((t) => [t.token, t.logprob]))),
    text_offset: offsets,
  };
}

/** Runs one text completion; throws ApiError for requests it refuses (before anything is sent). */
export async function runTextCompletion(ctx: CompletionContext, req: TextCompletionRequest, sink: CompletionSink): Promise<CompletionResult> {
  if (req.model !== ctx.modelId && !ctx.modelAliases.includes(req.model)) throw modelNotFound(req.model, ctx.modelId);
  const prompts = typeof req.prompt === "string" ? [req.prompt] : req.prompt;
  if (prompts.length !== 1) throw new ApiError(400, `Invalid 'prompt': this server completes one prompt per request, got ${prompts.length}.`, "invalid_request_error", "prompt", "invalid_value");
  if (req.echo) throw new ApiError(400, "Invalid value for 'echo': echoing the prompt is not supported.", "invalid_request_error", "echo", "unsupported_value");
  if (req.suffix) throw new ApiError(400, "Invalid value for 'suffix': insertion is not supported by this model.", "invalid_request_error", "suffix", "unsupported_value");
  const promptIds = ctx.tokenizer.encode(prompts[0]);
  const maxNewTokens = tokenBudget(ctx.contextLength, promptIds.length, req.max_tokens ?? Math.min(DEFAULT_MAX_TOKENS, ctx.contextLength - promptIds.length), "max_tokens", "prompt");
  const serial = ctx.nextSerial();
  const id = `cmpl-${Date.now().toString(36)}${serial}`;
  const created = Math.floor(Date.now() / 1000);
  const wantLogprobs = req.logprobs != null;
  const chunk = (text: string, finish: string | null, lp: LogprobEntry[] | null) => ({
    id,
    object: "text_completion",
    created,
    model: ctx.modelId,
    choices: [{ text, index: 0, logprobs: wantLogprobs && lp ? legacyLogprobs(lp) : null, finish_reason: finish }],
  });
  let sent = "";
  const run = await decodeText(
    ctx.engine,
    ctx.tokenizer,
    { promptIds, maxNewTokens, temperature: req.temperature, topP: req.top_p, seed: req.seed ?? serial, stop: req.stop, logprobs: wantLogprobs ? req.logprobs! : null },
    {
      onAbort: sink.onAbort,
      onText: (shown, entry) => {
        if (!sink.event || (!shown.startsWith(sent) && !entry)) return;
        const delta = shown.startsWith(sent) ? shown.slice(sent.length) : "";
        if (delta === "" && !entry) return;
        sent += delta;
        sink.event(chunk(delta, null, entry && [entry]));
      },
    },
  );
  if (run.gone) return {};
  const finish = run.reason === "length" && !run.stopped ? "length" : "stop";
  const usage = { prompt_tokens: promptIds.length, completion_tokens: run.ids.length, total_tokens: promptIds.length + run.ids.length };
  if (sink.event) {
    sink.event(chunk(run.text.startsWith(sent) ? run.text.slice(sent.length) : "", finish, null));
    if (req.stream_options?.include_usage) sink.event({ id, object: "text_completion", created, model: ctx.modelId, choices: [], usage });
    return {};
  }
  return { body: { id, object: "text_completion", created, model: ctx.modelId, choices: [{ text: run.text, index: 0, logprobs: wantLogprobs ? legacyLogprobs(run.logprobs) : null, finish_reason: finish }], usage } };
}
