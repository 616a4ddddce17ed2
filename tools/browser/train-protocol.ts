/**
 * Messages between the training page (train-page.ts) and its Web Worker (train-worker.ts), and the
 * training page's table of contents (train.json, written by train-build.ts). The page sends one
 * `train` message with the compiled lesson files the run may use; the worker answers with the
 * backend it got, whose functions it runs, one `step` a training step, and `done` (or `missing`,
 * naming the lessons to finish first, or `fatal`). `stop` ends the run after the step in flight.
 */
import type { BackendAvailability, BackendChoice } from "./backend-choice.js";
import type { CompiledFile } from "./protocol.js";

/** train.json: what the training page needs besides the grading build's manifest.json (its lib/ sources and esbuild's wasm). */
export interface TrainManifest {
  version: 1;
  /** The training worker's script. */
  worker: string;
  /** Path → text of the files the run reads: the tiny corpus and the course tokenizer. */
  data: string;
  /** Each function the run needs → the lesson that teaches it (lab 7's: the model's pieces and its own). */
  functions: Record<string, string>;
  /** Published lessons whose reference the run may use: lesson → its reference files compiled (CompiledFile[] as JSON). */
  references: Record<string, string>;
  /** Lessons whose reference the build was told are published but could not ship, with why. */
  withheld: Record<string, string>;
}

/** The lesson files a run may use for one lesson: the learner's passing ones (compiled in the page) and the published reference. */
export interface TrainLesson {
  /** The learner's files compiled, when the lesson passes in this browser; else why not ("not passed in this browser yet"). */
  learner: CompiledFile[] | string;
  reference?: CompiledFile[];
}

/** Lab 7's settings a page may change (labs/lesson-7/config.ts's names); the others stay the lab's. */
export interface TrainSettings {
  steps?: number;
  batchSize?: number;
  maxSeqLen?: number;
  learningRate?: number;
  hiddenSize?: number;
  numHiddenLayers?: number;
}

/** How AdamW runs: as tensor ops on a GPU backend (lib/model/train-on-device.ts), else on typed arrays (lib/model/train.ts). */
export type TrainStepKind = "on-device" | "typed-arrays";

export type PageToTrainWorker =
  | { type: "train"; /** The backend to train on (the page picks the best from a probe: backends.ts's chooseBest), with why better ones were skipped. */ choice: BackendChoice; settings: TrainSettings; dataUrl: string; lessons: Record<string, TrainLesson>; /** A held-out loss every this many steps (and at the end). */ heldOutEvery: number }
  | { type: "stop" }
  /** Which backends start here, each on its own (a throwaway worker: it is left on the last one tried). */
  | { type: "probe" };

export type TrainWorkerToPage =
  | { type: "probe"; backends: BackendAvailability[] }
  | { type: "backend"; choice: BackendChoice; step: TrainStepKind }
  | { type: "plan"; whose: string[]; parameters: number; config: string; trainSentences: number; heldOutSentences: number }
  | { type: "step"; step: number; steps: number; loss: number; lr: number; stepsPerSecond: number }
  | { type: "held-out"; step: number; loss: number }
  | {
      type: "done";
      steps: number;
      seconds: number;
      /** Steps a second after the first WARM_UP_STEPS (shader compilation and first allocations left out); undefined for shorter runs. */
      steadyStepsPerSecond?: number;
      stopped: boolean;
      samples: Array<{ prompt: string; text: string }>;
      /** Why there are no samples, when the backend cannot read synchronously. */
      noSamples?: string;
    }
  | { type: "missing"; message: string; lessons: string[] }
  | { type: "fatal"; message: string };

/** Steps left out of `steadyStepsPerSecond`: the first steps of a GPU backend compile its shaders. */
export const WARM_UP_STEPS = 2;
