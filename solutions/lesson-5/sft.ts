/**
 * Lesson 5 — SFT data and labels: how MiniMind turns a conversation into (input ids, labels),
 * dataset/lm_dataset.py's SFTDataset and its two chat pre/post-processing helpers.
 *
 * Randomness is explicit: each function that draws takes `random`, a source of uniforms in
 * [0, 1) (MiniMind calls Python's global `random`), so a seeded source gives the same sample on
 * every run. Read lessons/05-sft-data-and-labels.md first; every function cites the MiniMind
 * lines it mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { renderChat } from "../lesson-4/chat-template.js";
import type { ChatMessage } from "../lesson-4/chat-template.js";

/** A message as MiniMind's SFT jsonl stores it: tools and tool calls may be JSON strings. */
export interface SftMessage extends Omit<ChatMessage, "tool_calls"> {
  tools?: string | unknown[] | null;
  tool_calls?: string | ChatMessage["tool_calls"];
}

/** The course's own system prompts (MiniMind keeps ten of its own at lm_dataset.py:13-24). */
export const SYSTEM_PROMPTS: readonly string[] = [
  "You are a helpful assistant.",
  "You are a small language model trained in this course. Answer clearly.",
  "You are a careful assistant: check your arithmetic before you answer.",
  "Answer briefly and accurately.",
  "你是一个乐于助人的助手。",
  "请用简洁准确的语言回答用户的问题。",
];

/**
 * MiniMind's random system prompt: a conversation where any message carries `tools`, or whose
 * first message is a system message, comes back unchanged (the same array). Otherwise one draw
 * u = random(); when u < `addSystemRatio` a second draw picks prompt ⌊random()·n⌋ of
 * `systemPrompts`, prepended as a new system message (a new array; the input is not changed).
 *
 * Align with: dataset/lm_dataset.py:9-29
 */
export function preProcessingChat(
  conversations: SftMessage[],
  random: () => number,
  systemPrompts: readonly string[] = SYSTEM_PROMPTS,
  addSystemRatio = 0.2,
): SftMessage[] {
  // BEGIN SOLUTION
  if (conversations.some((m) => m.tools)) return conversations;
  if (conversations[0]?.role !== "system" && random() < addSystemRatio) {
    const prompt = systemPrompts[Math.floor(random() * systemPrompts.length)];
    return [{ role: "system", content: prompt }, ...conversations];
  }
  return conversations;
  // END SOLUTION
}

/**
 * MiniMind's empty-think removal: only when `prompt` contains "<think>\n\n</think>\n\n" is one
 * uniform drawn; if it is above `emptyThinkRatio` every such block is removed. A prompt without
 * one is returned as it is, with no draw.
 *
 * Align with: dataset/lm_dataset.py:31-35
 */
export function postProcessingChat(prompt: string, random: () => number, emptyThinkRatio = 0.2): string {
  // BEGIN SOLUTION
  const EMPTY_THINK = "<think>\n\n</think>\n\n";
  if (prompt.includes(EMPTY_THINK) && random() > emptyThinkRatio) return prompt.split(EMPTY_THINK).join("");
  return prompt;
  // END SOLUTION
}

/**
 * Labels for `inputIds`: -100 everywhere except the assistant spans. A span starts after each
 * occurrence of `assistantStart` (the ids of "<|im_start|>assistant\n") and runs through the
 * next `assistantEnd` (the ids of "<|im_end|>\n"), which is labelled too; with no end it runs to
 * the last id. Only positions below `maxLength` are labelled. Same length as `inputIds`.
 *
 * Align with: dataset/lm_dataset.py:88-104
 */
export function sftLabels(inputIds: number[], assistantStart: number[], assistantEnd: number[], maxLength: number): number[] {
  // BEGIN SOLUTION
  const matches = (at: number, seq: number[]) => seq.every((id, k) => inputIds[at + k] === id);
  const labels = new Array<number>(inputIds.length).fill(-100);
  let i = 0;
  while (i < inputIds.length) {
    if (!matches(i, assistantStart)) {
      i++;
      continue;
    }
    const start = i + assistantStart.length;
    let end = start;
    while (end < inputIds.length && !matches(end, assistantEnd)) end++;
    // MiniMind's ids are always padded to max_length; here an open span also stops at the last id.
    for (let j = start; j < Math.min(end + assistantEnd.length, maxLength, inputIds.length); j++) labels[j] = inputIds[j];
    i = end < inputIds.length ? end + assistantEnd.length : inputIds.length;
  }
  return labels;
  // END SOLUTION
}

/**
 * One SFT sample as MiniMind's SFTDataset builds it: random system prompt, chat template (tools
 * from a system message's `tools`, string `tool_calls` parsed), empty-think removal, encode,
 * cut to `maxLength`, right-pad with `tokenizer.padId`, then `sftLabels` with the encoded
 * assistant markers. Both arrays have length `maxLength`.
 *
 * Align with: dataset/lm_dataset.py:65-86, 106-113
 */
export function sftSample(
  conversations: SftMessage[],
  tokenizer: TextTokenizer,
  maxLength: number,
  random: () => number,
): { inputIds: number[]; labels: number[] } {
  // BEGIN SOLUTION
  const assistantStart = tokenizer.encode(`${tokenizer.bosToken}assistant\n`);
  const assistantEnd = tokenizer.encode(`${tokenizer.eosToken}\n`);
  let tools: unknown[] | undefined;
  const messages: ChatMessage[] = preProcessingChat(conversations, random).map((m) => {
    if (m.role === "system" && m.tools) tools = typeof m.tools === "string" ? (JSON.parse(m.tools) as unknown[]) : m.tools;
    const toolCalls = typeof m.tool_calls === "string" && m.tool_calls ? JSON.parse(m.tool_calls) : m.tool_calls;
    return { ...m, tool_calls: toolCalls || undefined } as ChatMessage;
  });
  const prompt = postProcessingChat(renderChat(messages, { tools }), random);
  const inputIds = tokenizer.encode(prompt).slice(0, maxLength);
  while (inputIds.length < maxLength) inputIds.push(tokenizer.padId);
  return { inputIds, labels: sftLabels(inputIds, assistantStart, assistantEnd, maxLength) };
  // END SOLUTION
}
