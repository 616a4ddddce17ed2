/**
 * Messages between the GRPO page (grpo-page.ts) and its Web Worker (grpo-worker.ts), and the GRPO
 * page's table of contents (grpo.json, written by grpo-build.ts). The page sends one `grpo` message
 * with the compiled lesson files the run may use; the worker answers with the backend it got,
 * whose functions it runs, held-out exact match before, one `step` a GRPO step (reward, loss, KL),
 * held-out exact match every few steps, and `done` (or `missing`, naming the lessons to finish
 * first, or `fatal`). `stop` ends the run after the step in flight; `probe` is train-protocol.ts's.
 */
import type { BackendChoice } from "./backend-choice.js";
import type { TrainLesson, TrainManifest, TrainWorkerToPage } from "./train-protocol.js";

/** grpo.json: the training page's manifest fields, and the start model. */
export interface GrpoManifest extends Omit<TrainManifest, "data"> {
  /** `{ files, train, heldOut }`: the files the run reads (the course tokenizer; path → text) and the sort prompts (lib/rl/tasks.ts's TaskRecord). */
  data: string;
  /** The start model: datasets/checkpoints/sort-start.safetensors, F16 (lib/model/safetensors.ts). */
  model: string;
}

/** The RL settings a page may change (lib/rl/settings.ts's names); the others are grpo-plan.ts's page defaults. */
export interface GrpoSettings {
  steps?: number;
  promptsPerStep?: number;
  numGenerations?: number;
  learningRate?: number;
  temperature?: number;
  beta?: number;
  lossType?: "grpo" | "cispo";
  maxNewTokens?: number;
  /** Held-out prompts measured (greedy exact match) before, every `evalEvery` steps and at the end. */
  evalLimit?: number;
  evalEvery?: number;
  seed?: number;
}

export type PageToGrpoWorker =
  | { type: "grpo"; choice: BackendChoice; settings: GrpoSettings; dataUrl: string; modelUrl: string; lessons: Record<string, TrainLesson> }
  | { type: "stop" }
  | { type: "probe" };

export type GrpoWorkerToPage =
  | Extract<TrainWorkerToPage, { type: "probe" | "missing" | "fatal" }>
  | { type: "backend"; choice: BackendChoice }
  | { type: "plan"; whose: string[]; parameters: number; config: string; run: string; trainPrompts: number; heldOutPrompts: number }
  | {
      type: "step";
      step: number;
      steps: number;
      loss: number;
      rewardMean: number;
      rewardStd: number;
      /** Exact match of the step's own samples. */
      accuracy: number;
      klRef: number;
      lr: number;
      /** Steps a second so far, over the steps' own time. */
      stepsPerSecond: number;
    }
  | { type: "held-out"; step: number; accuracy: number }
  | {
      type: "done";
      steps: number;
      /** Wall time from the first step to the last, held-out evaluations between steps included; and the steps' own time. */
      seconds: number;
      stepSeconds: number;
      /** Steps a second after the first WARM_UP_STEPS (train-protocol.ts), steps' own time; undefined for shorter runs. */
      steadyStepsPerSecond?: number;
      stopped: boolean;
      /** Why the run stopped early (lib/rl/context.ts's divergence check), when it did. */
      diverged?: string;
      samples: Array<{ question: string; answer: string; response: string }>;
    };
