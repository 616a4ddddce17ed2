/**
 * What a training stage is to `npm run train`: its data, where its weights start, how its weights
 * are named, and the prompts it shows before and after. The loop (lib/train/run.ts) is the same
 * for every stage; a stage module under lib/train/stages/ supplies only these.
 */
import type { MiniMindConfig } from "../model/config.js";
import type { MiniMindTS } from "../model/model.js";
import type { StoredTensor } from "../model/safetensors.js";
import type { Sample } from "./data.js";
import type { TrainSettings } from "./settings.js";
import type { TrainTokenizer } from "./tokenizer.js";

export interface StageContext {
  tok: TrainTokenizer;
  config: MiniMindConfig;
  /** The config's name, for messages ("--config tiny"). */
  configName: string;
  settings: TrainSettings;
  /** --data, else the stage's default. */
  dataPath: string;
  /** --from: the weights file to start from, when the stage takes one. */
  fromPath?: string;
  /** Prints a line of the run's header. */
  log: (line: string) => void;
}

export interface StageData {
  train: Sample[];
  heldOut: Sample[];
  /** Where the samples came from, in a few words ("datasets/tiny-corpus.txt, 96 lines"). */
  source: string;
  /** Malformed records skipped, and the first few with why. */
  skipped: number;
  skippedExamples: string[];
}

/** A prompt shown before and after training, as text and as the ids generation starts from. */
export interface StagePrompt {
  prompt: string;
  ids: number[];
}

export interface Stage {
  name: string;
  summary: string;
  /** MiniMind's --save_weight: the checkpoint's name prefix ("pretrain", "full_sft", …). */
  weightName: string;
  /** The data file when --data is not given (relative to the repository root). */
  defaultData: string;
  /** Settings that differ from the config's for this stage (SFT's smaller learning rate). */
  settings?: Partial<TrainSettings>;
  loadData(ctx: StageContext): StageData;
  /** Weights to start from; undefined starts from a seeded initialisation. */
  initialWeights?(ctx: StageContext): Record<string, StoredTensor> | undefined;
  prompts(ctx: StageContext): StagePrompt[];
  /** The variables the optimiser updates (default: every parameter). A LoRA stage returns only its adapters. */
  trainable?(model: MiniMindTS): import("../tf.js").Variable[];
}
