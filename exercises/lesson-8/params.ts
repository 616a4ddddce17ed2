/**
 * Lesson 8 — Config and parameter count.
 *
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
  /** The token embedding, plus lm_head when it is not tied. */
  embedding: number;
  /** The q, k, v and o projections of every layer (MiniMind's Linear layers have no bias). */
  attention: number;
  /** Every layer's MLP: the SwiGLU matrices, or with MoE the router and every expert. */
  feedForward: number;
  /** Every RMSNorm gain: the two of each block, each block's q_norm and k_norm, the final norm. */
  norms: number;
  /** MoE only (absent otherwise): the routed experts of every layer, router excluded. */
  experts?: number;
  /** What one token uses: total minus the experts it is not routed to (= total without MoE). */
  active: number;
}

/**
 * The parameters `MiniMindForCausalLM(config)` creates, by part (see `ParamCount`), from the config
 * alone; exact integers. MiniMind's default config gives total 63,912,192 ≈ 64M; with useMoe,
 * 198,416,640 of which 63,936,768 active (198M-A64M).
 *
 * Align with: model/model_minimind.py:91-107, 136-153, 178-204, 234-242 and the active count of
 * trainer/trainer_utils.py:18-28
 */
export function countParams(config: MiniMindConfig): ParamCount {
  throw new NotImplementedError("lesson-8", "countParams");
}
