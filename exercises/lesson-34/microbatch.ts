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
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-34`. Generated from
// solutions/ by `npm run stubs`; edit freely.

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
  throw new NotImplementedError("lesson-34", "splitMicroBatches");
}
