/**
 * What every completion route shares between its prompt ids and its reply: the context check
 * (the prompt blamed when it alone fills the context, the budget when the two together do), the
 * sampling settings, and one generation decoded to text as it arrives: cut at the first stop
 * string (the generation is cancelled there), a tail held back while it may still become a stop
 * string or is half a UTF-8 character, and each token's logprobs.
 */
import type { FinishReason, GenerationEngine } from "./engine.js";
import { ApiError } from "./errors.js";
import { logprobEntry, type LogprobEntry } from "./logprobs.js";
import { firstStop, partialTagLength } from "./reply-stream.js";
import type { ChatTokenizer } from "./tokenizer.js";

/**
 * Temperatures below this decode greedily: softmax(logits / T) is already argmax to float32
 * precision, and dividing by a T near float32's smallest normal (1e-38) overflows to ∞ and NaN.
 */
export const GREEDY_BELOW_TEMPERATURE = 1e-6;

/**
 * The token budget of a completion: `asked` (named `param` in the request), or all the room the
 * prompt leaves. 400 context_length_exceeded, naming `promptParam` when the prompt leaves no room.
 */
export function tokenBudget(contextLength: number, promptTokens: number, asked: number | null, param: string, promptParam: string): number {
  const room = contextLength - promptTokens;
  const refuse = (message: string, blamed: string) => new ApiError(400, `This model's maximum context length is ${contextLength} tokens. However, ${message}`, "invalid_request_error", blamed, "context_length_exceeded");
  if (room < 1) throw refuse(`your ${promptParam} resulted in ${promptTokens} tokens, which leaves no room for a reply. Please reduce the length of the ${promptParam}.`, promptParam);
  if (asked !== null && asked > room) {
    throw refuse(`you requested ${promptTokens + asked} tokens (${promptTokens} in the ${promptParam}, ${asked} in the completion). Please reduce the length of the ${promptParam} or completion.`, param);
  }
  return asked ?? room;
}

/** One generation's settings, in the request's terms. */
export interface DecodeSettings {
  promptIds: number[];
  maxNewTokens: number;
  temperature: number | null | undefined;
  topP: number | null | undefined;
  seed: number;
  stop: string | string[] | null | undefined;
  /** Top alternatives to report with each token's logprob; null: no logprobs. */
  logprobs: number | null;
}

/** Where the text goes while it is generated. */
export interface DecodeSink {
  /** After every token: the text that may be shown so far (cut at a stop, without the held tail) and the token's logprobs. */
  onText?: (shown: string, entry: LogprobEntry | null) => void;
  /** Called when the client is gone: register the cancel function. */
  onAbort: (cancel: () => void) => void;
}

export interface Decoded {
  ids: number[];
  /** The whole text, cut at the first stop string. */
  text: string;
  reason: FinishReason;
  /** A stop string ended it. */
  stopped: boolean;
  logprobs: LogprobEntry[];
  /** The client left before the end. */
  gone: boolean;
}

/** Decoded text of `ids`, without a trailing half character unless `final`. */
function decodeStable(tokenizer: ChatTokenizer, ids: number[], final: boolean): string {
  const text = tokenizer.decode(ids);
  return final ? text : text.replace(/\uFFFD+$/, "");
}

/** Runs one generation on `engine` and decodes it as it arrives (MiniMind's defaults: temperature 0.7, top-p 0.92). */
export async function decodeText(engine: GenerationEngine, tokenizer: ChatTokenizer, s: DecodeSettings, sink: DecodeSink): Promise<Decoded> {
  const stops = s.stop == null ? [] : typeof s.stop === "string" ? [s.stop] : s.stop;
  const ids: number[] = [];
  const logprobs: LogprobEntry[] = [];
  let stopped = false;
  const cut = (final: boolean): { text: string; hold: number } => {
    const text = decodeStable(tokenizer, ids, final);
    const at = firstStop(text, stops);
    if (at >= 0) return { text: text.slice(0, at), hold: 0 };
    return { text, hold: final ? 0 : partialTagLength(text, stops) };
  };
  const temperature = s.temperature ?? 0.7;
  const handle = engine.generate({
    promptIds: s.promptIds,
    maxNewTokens: s.maxNewTokens,
    temperature: temperature < GREEDY_BELOW_TEMPERATURE ? 0 : temperature,
    topP: s.topP ?? 0.92,
    topK: 50,
    seed: s.seed,
    logprobs: s.logprobs,
    onToken: (token, lp) => {
      if (stopped) return;
      ids.push(token);
      const entry = lp ? logprobEntry(token, lp, (t) => tokenizer.decode([t])) : null;
      if (entry) logprobs.push(entry);
      if (firstStop(decodeStable(tokenizer, ids, false), stops) >= 0) {
        stopped = true;
        handle.cancel();
      }
      const { text, hold } = cut(false);
      sink.onText?.(text.slice(0, text.length - hold), entry);
    },
  });
  let gone = false;
  sink.onAbort(() => {
    gone = true;
    handle.cancel();
  });
  const reason = await handle.done;
  return { ids, text: cut(true).text, reason, stopped, logprobs, gone };
}
