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
import type * as Lesson4ChatTemplate from "../lesson-4/chat-template.js";
import type { ChatMessage } from "../lesson-4/chat-template.js";
import type * as Lesson5Sft from "../lesson-5/sft.js";
import { resolveFunction } from "../../lib/resolver.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-21`. Generated from
// solutions/ by `npm run stubs`; edit freely.

// Other lessons' functions, through the course's resolver (lib/resolver.ts): their reference
// solutions, so this lesson grades the same whatever your progress on those.
const { fn: renderChat } = await resolveFunction<typeof Lesson4ChatTemplate.renderChat>("lesson-4", "renderChat", { useReference: true });
const { fn: postProcessingChat } = await resolveFunction<typeof Lesson5Sft.postProcessingChat>("lesson-5", "postProcessingChat", { useReference: true });
const { fn: sftLabels } = await resolveFunction<typeof Lesson5Sft.sftLabels>("lesson-5", "sftLabels", { useReference: true });

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
  throw new NotImplementedError("lesson-21", "dpoSample");
}

/**
 * A batch of B pairs as DPO training consumes it: `x` and `y` int32 [2B, L−1], `mask` float32
 * [2B, L−1]; rows 0…B−1 are the chosen sequences in order, rows B…2B−1 their rejected partners
 * (pair i is rows i and i + B). Needs B ≥ 1 and equal lengths.
 *
 * Align with: trainer/train_dpo.py:59-67
 */
export function dpoBatch(samples: DpoSample[]): { x: tf.Tensor2D; y: tf.Tensor2D; mask: tf.Tensor2D } {
  throw new NotImplementedError("lesson-21", "dpoBatch");
}
