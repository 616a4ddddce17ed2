/**
 * Lesson 34 — Batching: how AReaL splits a batch of sequences of different lengths into groups
 * whose token counts are balanced, with first-fit-decreasing (FFD) allocation. The same allocator
 * makes the actor's mini-batches (`nMbs` = ppo_n_minibatches, no budget: one optimiser step each)
 * and the engine's micro-batches (a `maxTokensPerMb` budget: gradient accumulation).
 *
 * Read lessons/34-normalisation-and-batching.md first; every function cites the AReaL lines it
 * mirrors at commit 4aef98d8 (inclusionAI/AReaL).
 */
import { DEFAULT_MAX_TOKENS_PER_MB } from "./config.js";

/**
 * Groups sequence indices into at least `nMbs` micro-batches of at most `maxTokensPerMb` tokens
 * each, exactly as AReaL's first-fit-decreasing allocator does (equal lengths in index order).
 *
 * `seqLens`: the token count of each sequence (its attention-mask sum); never modified. Returns
 * the index groups, each sorted, ordered by their first index. Throws when a sequence exceeds the
 * budget or when there are fewer sequences than `nMbs`.
 *
 * Align with: areal/utils/seqpack.py:195-255 and areal/utils/data.py:448-472
 * (called by split_padded_tensor_dict_into_mb_list, areal/utils/data.py:696-812)
 */
export function splitMicroBatches(seqLens: readonly number[], nMbs: number, maxTokensPerMb: number = DEFAULT_MAX_TOKENS_PER_MB): number[][] {
  // BEGIN SOLUTION
  if (seqLens.some((len) => len > maxTokensPerMb)) throw new Error(`a sequence is longer than maxTokensPerMb = ${maxTokensPerMb}`);
  if (seqLens.length < nMbs) throw new Error(`${seqLens.length} sequences cannot fill ${nMbs} micro-batches`);

  const longestFirst = seqLens.map((_, i) => i).sort((a, b) => seqLens[b] - seqLens[a] || a - b);
  const groups: number[][] = [];
  const tokens: number[] = [];
  for (const i of longestFirst) {
    const len = seqLens[i];
    const fits = groups.map((_, g) => g).filter((g) => tokens[g] + len <= maxTokensPerMb);
    if (groups.length < nMbs || fits.length === 0) {
      groups.push([i]);
      tokens.push(len);
      continue;
    }
    const best = fits.reduce((a, b) => {
      const bySize = groups[a].length - groups[b].length;
      const byTokens = tokens[a] - tokens[b];
      return bySize < 0 || (bySize === 0 && (byTokens < 0 || (byTokens === 0 && a < b))) ? a : b;
    });
    groups[best].push(i);
    tokens[best] += len;
  }
  return groups.map((g) => [...g].sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]);
  // END SOLUTION
}
