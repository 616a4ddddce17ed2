/**
 * Lesson 6 — Pretrain vs SFT: MiniMind's pretraining sample (dataset/lm_dataset.py's
 * PretrainDataset), the same (input ids, labels) interface as SFT with a different label rule.
 *
 * Read lessons/06-pretrain-vs-sft.md first; the function cites the MiniMind lines it mirrors at
 * commit d65ef2c (jingyaogong/minimind).
 */
import type { TextTokenizer } from "../../lib/tokenizer.js";

/**
 * One pretraining sample of length `maxLength`: the text's ids cut to `maxLength` − 2, wrapped
 * as [bos, …ids, eos], right-padded with `padId`. Labels copy the ids, except -100 wherever the
 * id equals `padId` (padding, and any pad token the text itself contained). Needs maxLength ≥ 2.
 *
 * Align with: dataset/lm_dataset.py:47-55
 */
export function pretrainSample(text: string, tokenizer: TextTokenizer, maxLength: number): { inputIds: number[]; labels: number[] } {
  // BEGIN SOLUTION
  const ids = tokenizer.encode(String(text)).slice(0, Math.max(0, maxLength - 2));
  const inputIds = [tokenizer.bosId, ...ids, tokenizer.eosId];
  while (inputIds.length < maxLength) inputIds.push(tokenizer.padId);
  const labels = inputIds.map((id) => (id === tokenizer.padId ? -100 : id));
  return { inputIds, labels };
  // END SOLUTION
}
