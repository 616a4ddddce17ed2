/**
 * What a training stage is to `npm run train`: its data, where its weights start, how its weights
 * are named, the lesson functions it needs, and the prompts it shows before and after. The loop
 * (lib/train/run.ts) is the same for every stage; a stage module under lib/train/stages/ supplies
 * only these.
 */
import type { MiniMindConfig } from "../model/config.js";
import type { MiniMindTS } from "../model/model.js";
import type { StoredTensor } from "../model/safetensors.js";
import type { Variable } from "../tf.js";
import type { Sample } from "./data.js";
import type { TrainSettings } from "./settings.js";
import type { TrainTokenizer } from "./tokenizer.js";

export interface StageContext {
  tok: TrainTokenizer;
  config: MiniMindConfig;
  /** The config's name, for messages ("--config tiny"). */
  configName: string;
  settings: TrainSettings;
  /** --data, when given (else the stage's own default files). */
  dataPath?: string;
  /** --from: the weights file to start from, when the stage takes one. */
  fromPath?: string;
  /** The stage's `functions`, resolved (the learner's when they pass grading, else the reference). */
  fns: Record<string, unknown>;
  /** Prints a line of the run's header. */
  log: (line: string) => void;
}

export interface StageData {
  train: Sample[];
  heldOut: Sample[];
  /** Where the samples came from, in a few words. */
  source: string;
  /** Malformed records skipped, and the first few with where and why. */
  skipped: number;
  problems: string[];
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
  /** Settings that differ from the config's for this stage (SFT's smaller learning rate). */
  settings?: Partial<TrainSettings>;
  /** Lesson functions the stage calls (name → lesson), resolved and printed with the loop's. */
  functions?: Record<string, string>;
  loadData(ctx: StageContext): Promise<StageData>;
  /** Weights to start from; undefined starts from a seeded initialisation. */
  initialWeights?(ctx: StageContext): Record<string, StoredTensor> | undefined;
  prompts(ctx: StageContext): StagePrompt[];
  /** The variables the optimiser updates (default: every parameter). A LoRA stage returns only its adapters. */
  trainable?(model: MiniMindTS): Variable[];
  /**
   * A loop of the stage's own, run instead of lib/train/run.ts's supervised one (RL: rollouts
   * between updates); it gets `npm run train`'s options as they are.
   */
  run?(opts: RunOptions): Promise<RunResult>;
}

/** What `npm run train` hands a run (lib/train/run.ts's loop, or a stage's own `run`). */
export interface RunOptions {
  stage: Stage;
  /** --config: a name of PRESETS; on resume, checked against the checkpoint's shapes. */
  configName?: string;
  /** --steps: micro-batches in the whole run. */
  steps?: number;
  /**
   * --stop-after: end the run after this many micro-batches (held-out loss, weights, resume file,
   * run.json) while the learning-rate schedule still spans --steps, as a Ctrl-C at that step would;
   * `--resume` continues it. The RL runs start from such a short SFT.
   */
  stopAfter?: number;
  outDir: string;
  /** --resume: the folder of the run to continue. */
  resumeDir?: string;
  useReference: string[];
  dataPath?: string;
  fromPath?: string;
  /**
   * --workers: processes that train together (data parallelism, lib/train/workers.ts); default 1.
   * Each takes --batch-size samples of every global batch.
   */
  workers?: number;
  /** Settings from the command line (batch size, lr, save interval, …). */
  overrides?: Partial<TrainSettings>;
  /** Whether the output is a terminal (a live bar); default process.stdout.isTTY. */
  tty?: boolean;
  /** Called after every micro-batch, once its tensors are freed (the leak test counts tensors here). */
  onStep?: (step: number) => void;
  /**
   * --name: what the run is called in its chart titles, messages and run.json when it is not the
   * stage's name (the capstone's task SFT is an sft run named "task-sft").
   */
  name?: string;
}

export interface RunResult {
  /** 0 finished, 130 stopped by Ctrl-C after saving. */
  exitCode: number;
  report: Record<string, unknown>;
}
