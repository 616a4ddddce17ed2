/**
 * Streaming a reply as OpenAI deltas while it is generated: which part of the text so far is
 * thinking (`reasoning_content`), which is the answer (`content`), and what must wait because it
 * may still turn into something else (half a `</think>`, a `<tool_call>` block not closed yet, the
 * beginning of a stop string, half a UTF-8 character). MiniMind's server streams the thinking until
 * `</think>` and the rest as content (scripts/serve_openai_api.py:136-167); tool calls are parsed
 * from the whole text at the end (169-172), which is what happens here too.
 */

export interface ReplyView {
  reasoning: string;
  content: string;
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
const CALL_OPEN = "<tool_call>";
const CALL_BLOCK = /<tool_call>[\s\S]*?<\/tool_call>/g;

/** Length of the longest suffix of `text` that is a proper prefix of one of `tags`. */
export function partialTagLength(text: string, tags: readonly string[]): number {
  let best = 0;
  for (const tag of tags) {
    for (let n = Math.min(tag.length - 1, text.length); n > best; n--) {
      if (text.endsWith(tag.slice(0, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}

/** Where the first of `stops` occurs in `text` (−1 if none). */
export function firstStop(text: string, stops: readonly string[]): number {
  let at = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/**
 * The parts of `text` that can be shown now. `thinking`: the prompt opened a think block, so the
 * text is thinking until `</think>`. With `final` nothing is held back and the parts are trimmed
 * (MiniMind's parse_response strips them, scripts/serve_openai_api.py:83-102), except the end of a
 * reply cut at a stop string when `keepEnd`: OpenAI returns the text up to the stop as it is.
 */
export function replyView(text: string, thinking: boolean, final: boolean, keepEnd = false): ReplyView {
  let reasoning = "";
  let rest = text;
  const opensItself = rest.replace(/^\s+/, "").startsWith(THINK_OPEN);
  if (thinking || opensItself) {
    if (opensItself) rest = rest.replace(/^\s*<think>/, "");
    const close = rest.indexOf(THINK_CLOSE);
    if (close < 0) {
      const hold = final ? 0 : partialTagLength(rest, [THINK_CLOSE]);
      reasoning = rest.slice(0, rest.length - hold);
      rest = "";
    } else {
      reasoning = rest.slice(0, close);
      rest = rest.slice(close + THINK_CLOSE.length);
    }
  }
  let content = rest.replace(CALL_BLOCK, "");
  const open = content.indexOf(CALL_OPEN);
  if (open >= 0) content = content.slice(0, open);
  else if (!final) content = content.slice(0, content.length - partialTagLength(content, [CALL_OPEN]));
  const tidy = (s: string) => (final && keepEnd ? s.replace(/^\s+/, "") : s.replace(/^\s+/, "").replace(/\s+$/, ""));
  return { reasoning: tidy(reasoning), content: tidy(content) };
}

/** Turns successive views into deltas: only what extends what was already sent. */
export class DeltaTracker {
  private sent: ReplyView = { reasoning: "", content: "" };

  /** The new reasoning and content since the last call ("" when nothing new). */
  next(view: ReplyView): ReplyView {
    const delta = (key: keyof ReplyView) => {
      const now = view[key];
      const before = this.sent[key];
      if (now.length <= before.length || !now.startsWith(before)) return "";
      this.sent[key] = now;
      return now.slice(before.length);
    };
    return { reasoning: delta("reasoning"), content: delta("content") };
  }
}
