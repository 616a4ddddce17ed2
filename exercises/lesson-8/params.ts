/**
 * Lesson 8 — Config and parameter count.
 *
 * Counts the weights `MiniMindForCausalLM(config)` creates, from the config alone. Symbols:
 * V = vocabSize, H = hiddenSize, L = numHiddenLayers, n_q = numAttentionHeads,
 * n_kv = numKeyValueHeads, d = headDim, I = intermediateSize, E = numExperts,
 * k = numExpertsPerTok, I_e = moeIntermediateSize.
 * Read lessons/08-config-and-parameter-count.md first; every function cites the MiniMind lines it
 * mirrors at commit d65ef2c (jingyaogong/minimind).
 */
import type { MiniMindConfig } from "../../lib/model/config.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-8`. Generated from
// solutions/ by `npm run stubs`; edit freely.

/** Parameter counts by part. Every count is an exact integer (not millions). */
export interface ParamCount {
  /** Every distinct parameter: a tied lm_head is the embedding, counted once. */
  total: number;
  /** The token embedding, plus lm_head when it is not tied: V·H·(tied ? 1 : 2). */
  embedding: number;
  /** q, k, v and o projections of every layer (no biases): L·(2·H·n_q·d + 2·H·n_kv·d). */
  attention: number;
  /** Every layer's MLP: 3·H·I for SwiGLU, or E·H (router) + E·3·H·I_e for MoE, times L. */
  feedForward: number;
  /** Every RMSNorm gain: two H-wide per block, q_norm and k_norm (d each) per block, the final H. */
  norms: number;
  /** MoE only: the routed experts of every layer, L·E·3·H·I_e (router excluded). */
  experts?: number;
  /** What one token uses: total minus the experts it is not routed to, L·(E − k)·3·H·I_e. */
  active: number;
}

/**
 * The parameters of MiniMind for a config, by part.
 *
 *   embedding   = V·H (+ V·H for an untied lm_head)
 *   attention   = L·(H·n_q·d + 2·H·n_kv·d + n_q·d·H)                 (GQA: k, v are n_kv heads)
 *   feedForward = L·3·H·I,   or with MoE  L·(E·H + E·3·H·I_e)
 *   norms       = L·(2·H + 2·d) + H
 *   total       = the sum;   active = total − L·(E − k)·3·H·I_e (= total without MoE)
 * MiniMind's default config gives 63,912,192 ≈ 64M; with useMoe, 198,416,640 of which
 * 63,936,768 active (198M-A64M).
 *
 * Align with: model/model_minimind.py:91-107, 136-153, 178-204, 234-242 and the active count of
 * trainer/trainer_utils.py:18-28
 */
export function countParams(config: MiniMindConfig): ParamCount {
  throw new NotImplementedError("lesson-8", "countParams");
}
