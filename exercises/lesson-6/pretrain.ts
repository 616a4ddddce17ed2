/**
 * Lesson 6 — Pretrain vs SFT: MiniMind's pretraining sample (dataset/lm_dataset.py's
 * PretrainDataset), the same (input ids, labels) interface as SFT with a different label rule.
 *
 * Read lessons/06-pretrain-vs-sft.md first; the function cites the MiniMind lines it mirrors at
 * commit d65ef2c (jingyaogong/minimind).
 */
import type { TextTokenizer } from "../../lib/tokenizer.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-6`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/**
 * One pretraining sample of length `maxLength`: the text's ids cut to `maxLength` − 2, wrapped
 * as [bos, …ids, eos], right-padded with `padId`. Labels copy the ids, except -100 wherever the
 * id equals `padId` (padding, and any pad token the text itself contained). Needs maxLength ≥ 2.
 *
 * Align with: dataset/lm_dataset.py:47-55
 */
export function pretrainSample(text: string, tokenizer: TextTokenizer, maxLength: number): { inputIds: number[]; labels: number[] } {
  throw new NotImplementedError("lesson-6", "pretrainSample");
}
