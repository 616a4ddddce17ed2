/**
 * A training run's two files, named as MiniMind names them (trainer/trainer_utils.py:63-67):
 * - `<weight>_<hidden>[_moe].safetensors`: the weights alone, MiniMind's parameter names, for the
 *   next stage, for `load_state_dict` in PyTorch, and for serving;
 * - `<weight>_<hidden>[_moe]_resume.safetensors`: everything a resumed run needs: the weights
 *   again, AdamW's two moments per parameter (`optimizer.exp_avg.<name>`, `optimizer.exp_avg_sq.<name>`),
 *   gradients of a half-finished accumulation (`accumulated_grad.<name>`), and, as JSON in the
 *   metadata, the step, the data position, the RNG state and the run's settings.
 * The resume file alone is authoritative (it holds the weights it belongs with), so the two files
 * can never disagree about the step. Both are written atomically (lib/train/atomic.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeSafetensors, encodeSafetensors, type StoredTensor } from "../model/safetensors.js";
import { parameterSpecs } from "../model/params.js";
import type { MiniMindConfig } from "../model/config.js";
import { writeFileAtomic } from "./atomic.js";
import { TrainError } from "./errors.js";

/** The run's position and settings, stored as JSON in the resume file. */
export interface ResumeMeta {
  format: 1;
  stage: string;
  config: MiniMindConfig;
  /** The training settings the run started with (batch size, accumulation, lr, seed, …). */
  settings: Record<string, unknown>;
  /** Micro-batches done over the whole run. */
  step: number;
  /** The epoch the next micro-batch belongs to, and micro-batches already done in it (MiniMind's `epoch`, `step`). */
  epoch: number;
  stepInEpoch: number;
  /** AdamW's step count t (bias correction). */
  adamStep: number;
  /** Processes that trained (1 here; lesson 15 rescales the step when it changes). */
  worldSize: number;
  /** The data order's RNG: every epoch's shuffle is seeded with seed + epoch, as MiniMind's setup_seed(42 + epoch). */
  rng: { seed: number; epoch: number };
  tokensSeen: number;
  /** Seconds spent training before this checkpoint (wall time of earlier processes). */
  trainSeconds: number;
  /** [step, loss] of every micro-batch so far, and [step, held-out loss] of every evaluation. */
  losses: Array<[number, number]>;
  heldOut: Array<[number, number]>;
  /** Held-out loss and samples before training, from the run's first process. */
  before: { heldOutLoss: number; samples: Array<{ prompt: string; text: string }> };
  /** The variables the optimiser updates, by name, when not every parameter (a LoRA run's adapters). */
  trainable?: string[];
}

export interface ResumeState {
  meta: ResumeMeta;
  weights: Record<string, StoredTensor>;
  /** AdamW moments by parameter name. */
  expAvg: Record<string, Float32Array>;
  expAvgSq: Record<string, Float32Array>;
  /** Gradients summed over a group the optimiser has not stepped on yet (absent when none). */
  accumulated?: Record<string, Float32Array>;
}

/** `pretrain_128` or `pretrain_128_moe`. */
export function checkpointStem(weight: string, config: MiniMindConfig): string {
  return `${weight}_${config.hiddenSize}${config.useMoe ? "_moe" : ""}`;
}

export const weightsPath = (dir: string, weight: string, config: MiniMindConfig) => join(dir, `${checkpointStem(weight, config)}.safetensors`);
export const resumePath = (dir: string, weight: string, config: MiniMindConfig) => join(dir, `${checkpointStem(weight, config)}_resume.safetensors`);

/** Writes the weights file (float32, MiniMind names, the config as metadata). */
export function saveWeights(path: string, weights: Record<string, StoredTensor>, config: MiniMindConfig): void {
  writeFileAtomic(path, encodeSafetensors({ tensors: weights, metadata: { format: "pt", config: JSON.stringify(config) } }));
}

/** Writes the resume file (see the module comment). */
export function saveResume(path: string, state: ResumeState): void {
  const tensors: Record<string, StoredTensor> = { ...state.weights };
  // Moments exist for the trained variables only (a LoRA run freezes its base weights).
  for (const name of Object.keys(state.expAvg)) {
    const w = state.weights[name];
    tensors[`optimizer.exp_avg.${name}`] = { shape: w.shape, data: state.expAvg[name] };
    tensors[`optimizer.exp_avg_sq.${name}`] = { shape: w.shape, data: state.expAvgSq[name] };
    if (state.accumulated) tensors[`accumulated_grad.${name}`] = { shape: w.shape, data: state.accumulated[name] };
  }
  writeFileAtomic(path, encodeSafetensors({ tensors, metadata: { format: "pt", resume: JSON.stringify(state.meta) } }));
}

/** The safetensors file at `path`, or a TrainError saying it is missing or unreadable. */
function readCheckpoint(path: string, what: string) {
  if (!existsSync(path)) throw new TrainError(`no ${what} at ${path}`);
  const bytes = readFileSync(path);
  try {
    if (bytes.length < 8) throw new Error(`only ${bytes.length} bytes`);
    const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, true));
    const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString("utf8")) as Record<string, { data_offsets?: [number, number] }>;
    const dataBytes = bytes.length - 8 - headerLength;
    for (const [name, entry] of Object.entries(header)) {
      if (name !== "__metadata__" && (entry.data_offsets?.[1] ?? Infinity) > dataBytes) throw new Error(`${name} runs past the end of the file (truncated?)`);
    }
    return decodeSafetensors(bytes);
  } catch (err) {
    throw new TrainError(`${what} ${path} is corrupt or truncated (${(err as Error).message}); resume from another checkpoint or start again`);
  }
}

/**
 * Checks that `tensors` holds every parameter of `config` with the right shape; the error names the
 * first tensor that differs, and the config it was checked against.
 */
export function checkShapes(tensors: Record<string, StoredTensor>, config: MiniMindConfig, where: string, configName: string): void {
  for (const spec of parameterSpecs(config)) {
    const t = tensors[spec.name];
    if (!t) throw new TrainError(`${where} does not match ${configName}: it has no tensor ${spec.name}`);
    if (t.shape.join(",") !== spec.shape.join(",")) {
      throw new TrainError(`${where} does not match ${configName}: ${spec.name} is [${t.shape.join(", ")}] there, [${spec.shape.join(", ")}] in ${configName}`);
    }
  }
}

/** Reads and checks a resume file: every weight, both moments, the metadata. */
export function loadResume(path: string): ResumeState {
  const file = readCheckpoint(path, "checkpoint");
  let meta: ResumeMeta;
  try {
    meta = JSON.parse(file.metadata.resume ?? "") as ResumeMeta;
  } catch {
    throw new TrainError(`checkpoint ${path} has no resume state in its metadata: it is a weights file, not a resume checkpoint`);
  }
  if (meta.format !== 1) throw new TrainError(`checkpoint ${path} has resume format ${String(meta.format)}; this course writes format 1`);
  checkShapes(file.tensors, meta.config, `checkpoint ${path}`, "the config stored in it");
  const weights: Record<string, StoredTensor> = {};
  const expAvg: Record<string, Float32Array> = {};
  const expAvgSq: Record<string, Float32Array> = {};
  let accumulated: Record<string, Float32Array> | undefined;
  // Every model parameter, plus a stage's own variables (LoRA adapters), under MiniMind's names.
  // Moments: for every parameter when all train; for the adapters alone when the stage says so
  // (meta.trainable, written by runs whose optimiser sees only some variables).
  const stateful = /^(optimizer\.exp_avg(_sq)?|accumulated_grad)\./;
  const names = [...new Set([...parameterSpecs(meta.config).map((s) => s.name), ...Object.keys(file.tensors).filter((n) => !stateful.test(n))])];
  const trained = new Set(meta.trainable ?? parameterSpecs(meta.config).map((s) => s.name));
  for (const name of names) {
    weights[name] = file.tensors[name];
    if (!trained.has(name)) continue;
    const m = file.tensors[`optimizer.exp_avg.${name}`];
    const v = file.tensors[`optimizer.exp_avg_sq.${name}`];
    if (!m || !v) throw new TrainError(`checkpoint ${path} lacks the optimizer state of ${name}`);
    expAvg[name] = m.data;
    expAvgSq[name] = v.data;
    const g = file.tensors[`accumulated_grad.${name}`];
    if (g) (accumulated ??= {})[name] = g.data;
  }
  return { meta, weights, expAvg, expAvgSq, accumulated };
}

/** Reads a weights file (a stage's starting point) and checks it against `config`. */
export function loadWeights(path: string, config: MiniMindConfig, configName: string): Record<string, StoredTensor> {
  const file = readCheckpoint(path, "weights file");
  checkShapes(file.tensors, config, `weights file ${path}`, configName);
  return file.tensors;
}
