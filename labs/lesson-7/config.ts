/**
 * Lab 7's run: train_pretrain.py's arguments that matter here, scaled down to a laptop, and the
 * tiny MiniMindTS they describe. Shared by the lab (`npm run lab lesson-7`) and the training page
 * of tools/browser/ (train-worker.ts), so both run the same model on the same settings.
 */
import { miniMindConfig, type MiniMindConfig } from "../../lib/model/config.js";
import type { ClipGradNorm } from "../../lib/model/types.js";
import type { PretrainSample } from "../../lib/train/data.js";

/** train_pretrain.py's arguments that matter here. */
export interface PretrainArgs {
  steps: number;
  batchSize: number;
  maxSeqLen: number;
  learningRate: number;
  gradClip: number;
  logInterval: number;
  hiddenSize: number;
  numHiddenLayers: number;
}

/**
 * The lab's settings, each overridable by `value(name, default)` (a command line's `--steps 20`):
 * the cpu backend takes seconds a step at this size, so a few steps there show the loop and the
 * faster backends run it all.
 */
export function pretrainArgs(backend: string, value: (name: string, fallback: number) => number = (_, fallback) => fallback): PretrainArgs {
  return {
    steps: value("steps", backend === "cpu" ? 4 : 250),
    batchSize: value("batch-size", 16),
    maxSeqLen: value("max-seq-len", 64),
    learningRate: value("learning-rate", 3e-3),
    gradClip: 1.0,
    logInterval: 25,
    hiddenSize: value("hidden-size", 128),
    numHiddenLayers: value("num-hidden-layers", 2),
  };
}

/** The tiny MiniMindTS of `args` over a tokenizer of `vocabSize` tokens (4 heads over 2 kv heads). */
export function pretrainModelConfig(args: PretrainArgs, vocabSize: number): MiniMindConfig {
  return miniMindConfig({
    vocabSize,
    hiddenSize: args.hiddenSize,
    numHiddenLayers: args.numHiddenLayers,
    numAttentionHeads: 4,
    numKeyValueHeads: 2,
    maxPositionEmbeddings: args.maxSeqLen,
  });
}

/** The lesson functions the run calls itself, beside the model's pieces (lib/model/pieces.ts's runningPieces). */
export interface PretrainFunctions {
  cosineLr: (step: number, total: number, lr: number) => number;
  clipGradNorm: ClipGradNorm;
  pretrainSample: PretrainSample;
}

/** Where each of them is taught: MiniMind's cosine schedule and gradient clipping are lesson 14's exercises, the samples lesson 6's. */
export const PRETRAIN_FUNCTION_HOMES: { [K in keyof PretrainFunctions]: string } = { cosineLr: "lesson-14", clipGradNorm: "lesson-14", pretrainSample: "lesson-6" };
