/**
 * OpenAI's `logprobs`: how likely the model found each token it produced, and the alternatives it
 * found most likely, from the logits of that step (log-softmax at temperature 1, whatever the
 * sampling temperature, as vLLM reports them by default).
 */
import type { TokenLogprobs } from "./protocol.js";

/** The log-probability of `token` in one row of logits [V], and the `top` most likely ids (OpenAI's logprobs). */
export function tokenLogprobs(logits: Float32Array, token: number, top: number): TokenLogprobs {
  let max = -Infinity;
  for (const x of logits) max = Math.max(max, x);
  let sum = 0;
  for (const x of logits) sum += Math.exp(x - max);
  const logZ = max + Math.log(sum);
  const best = top > 0 ? Array.from(logits.keys()).sort((a, b) => logits[b] - logits[a]).slice(0, top) : [];
  return { logprob: logits[token] - logZ, top: best.map((id) => [id, logits[id] - logZ]) };
}

/** One entry of `choices[].logprobs.content`: the token's text and UTF-8 bytes, its log-probability, the top alternatives. */
export interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

/** `lp` in OpenAI's shape, a token's text given by `tokenText`. */
export function logprobEntry(token: number, lp: TokenLogprobs, tokenText: (id: number) => string): LogprobEntry {
  const item = (id: number, logprob: number) => {
    const text = tokenText(id);
    return { token: text, logprob, bytes: Array.from(Buffer.from(text, "utf8")) };
  };
  return { ...item(token, lp.logprob), top_logprobs: lp.top.map(([id, logprob]) => item(id, logprob)) };
}
