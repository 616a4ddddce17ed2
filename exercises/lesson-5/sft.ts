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
import type * as Lesson4ChatTemplate from "../lesson-4/chat-template.js";
import type { ChatMessage } from "../lesson-4/chat-template.js";
import { resolveFunction } from "../../lib/resolver.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-5`. Generated from
// solutions/ by `npm run stubs`; edit freely.

// Other lessons' functions, through the course's resolver (lib/resolver.ts): their reference
// solutions, so this lesson grades the same whatever your progress on those.
const { fn: renderChat } = await resolveFunction<typeof Lesson4ChatTemplate.renderChat>("lesson-4", "renderChat", { useReference: true });

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
  throw new NotImplementedError("lesson-5", "preProcessingChat");
}

/**
 * MiniMind's empty-think removal: only when `prompt` contains "<think>\n\n</think>\n\n" is one
 * uniform drawn; if it is above `emptyThinkRatio` every such block is removed. A prompt without
 * one is returned as it is, with no draw.
 *
 * Align with: dataset/lm_dataset.py:31-35
 */
export function postProcessingChat(prompt: string, random: () => number, emptyThinkRatio = 0.2): string {
  throw new NotImplementedError("lesson-5", "postProcessingChat");
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
  throw new NotImplementedError("lesson-5", "sftLabels");
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
  throw new NotImplementedError("lesson-5", "sftSample");
}
