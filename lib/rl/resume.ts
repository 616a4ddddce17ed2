/**
 * The resume checkpoint of an RL run (`npm run train -- grpo|ppo|dpo --resume DIR`), written beside
 * the weights at every save with lib/train/checkpoint.ts's saveResume (atomic, fsynced): the policy
 * weights, its AdamW moments and step, and as JSON the step, the prompt cursor and epoch, the
 * settings, the --from path and its SHA-256 (the frozen reference must be the same file), the
 * held-out accuracy curve, every step's metrics and the "before" evaluation, so a resumed run's
 * run.json and SVG curves cover the whole run. An algorithm's own state (PPO's critic and its
 * optimiser, DPO's pair order) travels under `algorithm.` names and in `meta.rl.algorithm`.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MiniMindConfig } from "../model/config.js";
import type { StoredTensor } from "../model/safetensors.js";
import { loadResume, saveResume, type ResumeMeta } from "../train/checkpoint.js";
import { shown } from "../train/data.js";
import { TrainError } from "../train/errors.js";
import type { RlSettings } from "./settings.js";

/** What an algorithm keeps across a resume beyond the policy and its optimiser. */
export interface AlgorithmState {
  /** float32 tensors by name (stored as `algorithm.<name>`). */
  tensors: Record<string, StoredTensor>;
  /** Anything JSON can hold (cursors, counts). */
  json: unknown;
}

/** Where the run stands, in the resume file's metadata (`meta.rl`). */
export interface RlProgress {
  configName: string;
  /** The --from weights (null: a seeded start) and their SHA-256: the frozen reference. */
  from: { path: string; sha256: string } | null;
  /** The prompt order: `epoch` shuffles made so far, `cursor` prompts used of the last one. */
  prompts: { cursor: number; epoch: number; count: number; sha256: string };
  /** Seconds of earlier processes (setup included) and of the first process's setup. */
  seconds: number;
  setupSeconds: number;
  accuracy: Array<[number, number]>;
  history: Array<Record<string, unknown>>;
  before: unknown;
  algorithm: unknown;
}

export interface RlResumeMeta extends ResumeMeta {
  rl: RlProgress;
}

/** Settings a resumed run may change: how long it runs and how often it logs, evaluates and saves. */
const MAY_CHANGE: ReadonlyArray<keyof RlSettings> = ["steps", "maxMinutes", "logEvery", "evalEvery", "saveEvery"];

/** The SHA-256 of a file, hex. */
export function fileSha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** The SHA-256 of the training prompts in order (a changed corpus would change what the cursor points at). */
export function promptsSha256(questions: readonly string[]): string {
  return createHash("sha256").update(questions.join("\n")).digest("hex");
}

// JSON has no NaN or ±Infinity (DPO logs entropy NaN): they travel as strings.
const encode = (v: unknown): unknown => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v && typeof v === "object" ? mapValues(v, encode) : v);
const decode = (v: unknown): unknown => (v === "NaN" || v === "Infinity" || v === "-Infinity" ? Number(v) : v && typeof v === "object" ? mapValues(v, decode) : v);
function mapValues(v: object, f: (x: unknown) => unknown): unknown {
  return Array.isArray(v) ? v.map(f) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, f(x)]));
}

/** The resume file of `weightName` in `dir`, or a TrainError (exit 2) saying there is none. */
export function findRlResume(dir: string, stage: string, weightName: string): string {
  if (!existsSync(dir)) throw new TrainError(`--resume ${shown(dir)}: no such folder`, 2);
  const found = readdirSync(dir).filter((f) => f.startsWith(`${weightName}_`) && f.endsWith("_resume.safetensors")).sort();
  if (found.length === 0) throw new TrainError(`--resume ${shown(dir)}: no ${stage} resume checkpoint there (no ${weightName}_<hidden>_resume.safetensors; runs saved before RL resume existed cannot continue: start again with --from)`, 2);
  return join(dir, found[0]);
}

export interface RlCheckpoint {
  step: number;
  config: MiniMindConfig;
  settings: RlSettings;
  weights: Record<string, StoredTensor>;
  /** AdamW's moments by parameter name, and its step count. */
  optimizer: { m: Record<string, Float32Array>; v: Record<string, Float32Array>; t: number };
  progress: RlProgress;
  algorithm: AlgorithmState;
}

/** Writes the resume file (policy weights and their moments, the algorithm's state; see the module comment). */
export function saveRlResume(path: string, stage: string, c: RlCheckpoint): void {
  const tensors: Record<string, StoredTensor> = { ...c.weights };
  for (const [n, t] of Object.entries(c.algorithm.tensors)) tensors[`algorithm.${n}`] = t;
  const meta: RlResumeMeta = {
    format: 1,
    stage,
    config: c.config,
    settings: c.settings as unknown as Record<string, unknown>,
    step: c.step,
    epoch: c.progress.prompts.epoch,
    stepInEpoch: c.progress.prompts.cursor,
    adamStep: c.optimizer.t,
    worldSize: 1,
    rng: { seed: c.settings.seed, epoch: c.progress.prompts.epoch },
    tokensSeen: 0,
    trainSeconds: c.progress.seconds,
    losses: [],
    heldOut: [],
    before: { heldOutLoss: NaN, samples: [] },
    rl: encode({ ...c.progress, algorithm: c.algorithm.json }) as RlProgress,
  };
  saveResume(path, { meta, weights: tensors, expAvg: c.optimizer.m, expAvgSq: c.optimizer.v });
}

/** Reads an RL resume file written by `saveRlResume` for `stage` (TrainError when it is not one). */
export function loadRlResume(path: string, stage: string): RlCheckpoint {
  const state = loadResume(path);
  const meta = state.meta as RlResumeMeta;
  if (meta.stage !== stage) throw new TrainError(`${shown(path)} is a ${meta.stage} checkpoint, not ${stage}`, 2);
  if (!meta.rl) throw new TrainError(`${shown(path)} is not an RL resume checkpoint (no RL progress in it)`, 2);
  const weights: Record<string, StoredTensor> = {};
  const algorithm: Record<string, StoredTensor> = {};
  for (const [n, t] of Object.entries(state.weights)) {
    if (n.startsWith("algorithm.")) algorithm[n.slice("algorithm.".length)] = t;
    else weights[n] = t;
  }
  const progress = decode(meta.rl) as RlProgress;
  return {
    step: meta.step,
    config: meta.config,
    settings: meta.settings as unknown as RlSettings,
    weights,
    optimizer: { m: state.expAvg, v: state.expAvgSq, t: meta.adamStep },
    progress,
    algorithm: { tensors: algorithm, json: progress.algorithm },
  };
}

/**
 * The settings of a resumed run: the stored ones, with the command line's `overrides` of what may
 * change (steps, --max-minutes, the log/eval/save intervals); any other option that differs, a
 * different --config or --from, or a --from file that is gone or changed, is a TrainError (exit 2).
 */
export function resumedSettings(c: RlCheckpoint, path: string, overrides: Partial<RlSettings>, configName: string | undefined, fromPath: string | undefined): RlSettings {
  const where = `--resume ${shown(path)}`;
  const conflicts = Object.entries(overrides)
    .filter(([k, v]) => !MAY_CHANGE.includes(k as keyof RlSettings) && JSON.stringify(v) !== JSON.stringify(c.settings[k as keyof RlSettings]))
    .map(([k, v]) => `${k} ${JSON.stringify(c.settings[k as keyof RlSettings])} there, ${JSON.stringify(v)} on the command line`);
  if (configName !== undefined && configName !== c.progress.configName) conflicts.push(`--config ${c.progress.configName} there, ${configName} on the command line`);
  const from = c.progress.from;
  if (fromPath !== undefined && fromPath !== from?.path) conflicts.push(`--from ${from ? shown(from.path) : "(none: a seeded start)"} there, ${shown(fromPath)} on the command line`);
  if (conflicts.length > 0) throw new TrainError(`${where}: settings conflict with the saved run (${conflicts.join("; ")}); drop those options to continue it, or start a new run with --out`, 2);
  if (from) {
    if (!existsSync(from.path)) throw new TrainError(`${where}: the frozen reference ${shown(from.path)} (the run's --from) is missing; restore it to continue`, 2);
    if (fileSha256(from.path) !== from.sha256) throw new TrainError(`${where}: the frozen reference ${shown(from.path)} (the run's --from) changed since the run started (SHA-256 differs); restore it or start a new run`, 2);
  }
  const settings = { ...c.settings };
  for (const k of MAY_CHANGE) if (overrides[k] !== undefined) (settings as Record<string, unknown>)[k] = overrides[k];
  if (settings.steps < c.step) throw new TrainError(`${where}: the run already did ${c.step} steps; --steps ${settings.steps} is fewer`, 2);
  return settings;
}
