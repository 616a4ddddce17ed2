/**
 * Messages between the model server (lib/serve/engine.ts) and its generation process
 * (lib/serve/worker.ts). The generation process plays the part of the thread MiniMind's server
 * starts for `model.generate` (scripts/serve_openai_api.py:110-130): it computes while the HTTP
 * server stays free to stream, queue and notice a client that left.
 */
import type { FunctionChoice } from "../resolver.js";

/** How the generation process starts: argv[2] of the child, as JSON. */
export interface WorkerStart {
  checkpoint: string;
  /** Lessons whose reference runs whatever the learner's state (`--use-reference`). */
  useReference: string[];
  /** Generations decoded together, as the rows of one batch (1: one at a time). */
  maxBatch: number;
}

/** One generation request. */
export interface GenerateJob {
  type: "generate";
  id: string;
  promptIds: number[];
  maxNewTokens: number;
  /** 0 is greedy decoding. */
  temperature: number;
  topP: number;
  topK: number;
  seed: number;
  /** Send each chosen token's log-probability and this many most likely alternatives (null: none). */
  logprobs: number | null;
}

/** A token's log-probability under the model (log-softmax of its logits) and the `top` most likely ids with theirs. */
export interface TokenLogprobs {
  logprob: number;
  top: Array<[id: number, logprob: number]>;
}

/** Stop generation `id` (its `done` comes back with reason "cancelled"). */
export interface CancelJob {
  type: "cancel";
  id: string;
}

export type ToWorker = GenerateJob | CancelJob;

export type FromWorker =
  | { type: "ready"; choices: FunctionChoice[]; config: { vocabSize: number; maxPositionEmbeddings: number; eosTokenId: number; hiddenSize: number; numHiddenLayers: number }; parameters: number; backend: string }
  | { type: "token"; id: string; token: number; logprobs?: TokenLogprobs }
  | { type: "done"; id: string; reason: "eos" | "length" | "cancelled" }
  | { type: "error"; id: string; message: string }
  | { type: "fatal"; message: string };
