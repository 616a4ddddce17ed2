/**
 * Lesson 21 — DPO data: MiniMind's DPODataset (dataset/lm_dataset.py) turning a chosen and a
 * rejected conversation into shifted inputs, targets and loss masks, and the batch layout
 * trainer/train_dpo.py feeds lesson 22's dpoLoss: all chosen rows, then all rejected rows.
 *
 * Read lessons/21-dpo-data-and-reference.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import * as tf from "../../lib/tf.js";
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { renderChat } from "../lesson-4/chat-template.js";
import type { ChatMessage } from "../lesson-4/chat-template.js";
import { postProcessingChat, sftLabels } from "../lesson-5/sft.js";

/** One preference pair, shifted: every array has length maxLength − 1. */
export interface DpoSample {
  xChosen: number[];
  yChosen: number[];
  maskChosen: number[];
  xRejected: number[];
  yRejected: number[];
  maskRejected: number[];
}

/**
 * Each conversation rendered by the chat template, post-processed (chosen first, then rejected,
 * each drawing from `random` only if it has an empty think block), encoded, cut and right-padded
 * with `padId` to `maxLength`; its loss mask is 1 on assistant spans (the SFT label scan), else 0.
 * Then x = ids[0:L−1], y = ids[1:L], mask = mask[1:L].
 *
 * Align with: dataset/lm_dataset.py:135-174, 176-192
 */
export function dpoSample(chosen: ChatMessage[], rejected: ChatMessage[], tokenizer: TextTokenizer, maxLength: number, random: () => number): DpoSample {
  // BEGIN SOLUTION
  const assistantStart = tokenizer.encode(`${tokenizer.bosToken}assistant\n`);
  const assistantEnd = tokenizer.encode(`${tokenizer.eosToken}\n`);
  const prompts = [chosen, rejected].map((conversation) => postProcessingChat(renderChat(conversation), random));
  const [c, r] = prompts.map((prompt) => {
    const ids = tokenizer.encode(prompt).slice(0, maxLength);
    while (ids.length < maxLength) ids.push(tokenizer.padId);
    const mask = sftLabels(ids, assistantStart, assistantEnd, maxLength).map((label) => (label === -100 ? 0 : 1));
    return { x: ids.slice(0, -1), y: ids.slice(1), mask: mask.slice(1) };
  });
  return { xChosen: c.x, yChosen: c.y, maskChosen: c.mask, xRejected: r.x, yRejected: r.y, maskRejected: r.mask };
  // END SOLUTION
}

/**
 * A batch of B pairs as DPO training consumes it: `x` and `y` int32 [2B, L−1], `mask` float32
 * [2B, L−1]; rows 0…B−1 are the chosen sequences in order, rows B…2B−1 their rejected partners
 * (pair i is rows i and i + B). Needs B ≥ 1 and equal lengths.
 *
 * Align with: trainer/train_dpo.py:59-67
 */
export function dpoBatch(samples: DpoSample[]): { x: tf.Tensor2D; y: tf.Tensor2D; mask: tf.Tensor2D } {
  // BEGIN SOLUTION
  const rows = (chosen: keyof DpoSample, rejected: keyof DpoSample) => [...samples.map((s) => s[chosen]), ...samples.map((s) => s[rejected])];
  return {
    x: tf.tensor2d(rows("xChosen", "xRejected"), undefined, "int32"),
    y: tf.tensor2d(rows("yChosen", "yRejected"), undefined, "int32"),
    mask: tf.tensor2d(rows("maskChosen", "maskRejected"), undefined, "float32"),
  };
  // END SOLUTION
}
