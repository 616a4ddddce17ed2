/**
 * The configurations `npm run train -- <stage> --config <name>` offers: a model size and the
 * training settings that go with it, MiniMind's train_pretrain.py arguments scaled to a laptop CPU.
 */
import { miniMindConfig, type MiniMindConfig } from "../model/config.js";

/** The run's settings, MiniMind's argument names in camelCase (trainer/train_pretrain.py:84-106). */
export interface TrainSettings {
  batchSize: number;
  maxSeqLen: number;
  learningRate: number;
  accumulationSteps: number;
  gradClip: number;
  /** Passes over the data; `steps`, when set, ends the run earlier or later. */
  epochs: number;
  /** Micro-batches in the whole run (the lr schedule's T); default epochs × batches per epoch. */
  steps?: number;
  seed: number;
  /** A checkpoint every this many micro-batches (MiniMind's save_interval), and at the end. */
  saveEvery: number;
  /** A progress line every this many micro-batches when the output is not a terminal (log_interval). */
  logEvery: number;
  /** The held-out loss every this many micro-batches, and at the end. */
  evalEvery: number;
  /** One record in this many is held out (never trained on), when the data has no held-out file. */
  heldOutEvery: number;
  /** At most this many held-out records are evaluated (evaluation cost grows with them). */
  heldOutLimit: number;
  /**
   * Which weights the weights file (what the next stage loads) holds: "best", those of the
   * evaluation with the lowest held-out loss (the default), or "last", MiniMind's choice (it saves
   * whatever the model is at each save_interval and at the end). The resume file always holds the
   * last step's, so --resume continues the schedule either way.
   */
  keep?: "best" | "last";
}

export interface Preset {
  /** The model's shape in words; the batch and length a run uses are printed from its settings. */
  summary: string;
  model: Partial<MiniMindConfig>;
  settings: TrainSettings;
}

const base: Omit<TrainSettings, "batchSize" | "maxSeqLen"> = {
  learningRate: 3e-3,
  accumulationSteps: 1,
  gradClip: 1.0,
  epochs: 1,
  seed: 42,
  saveEvery: 100,
  logEvery: 25,
  evalEvery: 100,
  heldOutEvery: 8,
  heldOutLimit: 256,
};

export const PRESETS: Record<string, Preset> = {
  tiny: {
    summary: "hidden 128, 2 layers, 4 heads over 2 kv heads",
    model: { hiddenSize: 128, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2 },
    settings: { ...base, batchSize: 16, maxSeqLen: 64, epochs: 30 },
  },
  small: {
    summary: "hidden 256, 4 layers, 8 heads over 2 kv heads",
    model: { hiddenSize: 256, numHiddenLayers: 4, numAttentionHeads: 8, numKeyValueHeads: 2 },
    settings: { ...base, batchSize: 16, maxSeqLen: 128, learningRate: 1e-3, epochs: 10 },
  },
  micro: {
    summary: "hidden 16, 1 layer, 2 heads over 1 kv head (tests and the cpu backend)",
    model: { hiddenSize: 16, numHiddenLayers: 1, numAttentionHeads: 2, numKeyValueHeads: 1 },
    settings: { ...base, batchSize: 4, maxSeqLen: 16, epochs: 1, saveEvery: 2, logEvery: 1, evalEvery: 10 },
  },
};

/** The model config of `preset` for a tokenizer of `vocabSize` ids and sequences of maxSeqLen. */
export function presetConfig(preset: Preset, vocabSize: number, maxSeqLen: number): MiniMindConfig {
  return miniMindConfig({ ...preset.model, vocabSize, maxPositionEmbeddings: maxSeqLen });
}
