/**
 * LoRA on MiniMindTS (MiniMind's model/model_lora.py and trainer/train_lora.py): adapters beside
 * the frozen square projections, trained alone, saved alone, merged for export.
 *
 * The adapters enter the forward pass as effective weights W + (α/r)·B·A (lesson 18's `mergeLora`)
 * rather than as a second path x·Aᵀ·Bᵀ (lesson 18's `loraLinear`): the two are equal
 * ((x·Aᵀ)·Bᵀ = x·(B·A)ᵀ), and the weight form lets the learner's own attention piece, which takes
 * weights, run unchanged. Lessons 18 and 19 supply every LoRA function, through the resolver.
 */
import * as tf from "../tf.js";
import { Rng } from "../random.js";
import { resolveFunctions, type FunctionChoice, type ResolveOptions } from "../resolver.js";
import type { MiniMindConfig } from "./config.js";
import { MiniMindTS, type ModelOptions } from "./model.js";
import { loadSafetensors, saveSafetensors, type StoredTensor } from "./safetensors.js";

/** The LoRA functions of lessons 18 and 19 (their signatures; lib/ never imports solutions/). */
export interface LoraFunctions {
  mergeLora: (weight: tf.Tensor2D, loraA: tf.Tensor2D, loraB: tf.Tensor2D, alpha: number) => tf.Tensor2D;
  applyLora: (weights: Record<string, tf.Tensor>, rank: number, initA: (name: string, shape: [number, number]) => tf.Tensor2D) => Record<string, tf.Tensor2D>;
  trainableParams: (shapes: Record<string, readonly number[]>) => { trainable: string[]; trainableCount: number; totalCount: number };
}

export const LORA_HOMES: Record<keyof LoraFunctions, string> = { mergeLora: "lesson-18", applyLora: "lesson-19", trainableParams: "lesson-19" };

/** The learner's LoRA functions where they pass grading, else the reference; with whose they are. */
export async function resolveLoraFunctions(opts: ResolveOptions = {}): Promise<{ fns: LoraFunctions; choices: FunctionChoice[] }> {
  return resolveFunctions<LoraFunctions>(LORA_HOMES, opts);
}

/** MiniMind's A initialisation, N(0, 0.02²) (model_lora.py:13), seeded per adapter name. */
export function seededInitA(seed: number): (name: string, shape: [number, number]) => tf.Tensor2D {
  return (name, shape) => {
    let h = seed >>> 0;
    for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
    return tf.tensor2d(new Rng(h).normals(shape[0] * shape[1], 0, 0.02), shape);
  };
}

export interface LoraOptions {
  rank: number;
  /** α of the scale α/r; default r (MiniMind's scale of 1). */
  alpha?: number;
  seed?: number;
  /** Adapter values to start from (a saved adapter file) instead of a fresh applyLora. */
  adapters?: Record<string, tf.Tensor>;
}

/** Counts of what LoRA trains, MiniMind's train_lora.py:133-137. */
export interface LoraCounts {
  trainableCount: number;
  totalCount: number;
  /** trainableCount / totalCount. */
  fraction: number;
}

/** A MiniMindTS whose square projections carry LoRA adapters; only the adapters train. */
export class LoraModel {
  readonly model: MiniMindTS;
  /** Adapter variables by MiniMind name ("….q_proj.lora.A.weight"). */
  readonly adapters: Record<string, tf.Variable>;
  readonly rank: number;
  readonly alpha: number;
  /** The variables the optimiser updates, chosen by lesson 19's `trainableParams`. */
  readonly trainable: tf.Variable[];
  readonly counts: LoraCounts;

  constructor(config: MiniMindConfig, baseWeights: Record<string, tf.Tensor>, fns: LoraFunctions, opts: LoraOptions, modelOpts: ModelOptions = {}) {
    this.rank = opts.rank;
    this.alpha = opts.alpha ?? opts.rank;
    const fresh = opts.adapters ?? fns.applyLora(baseWeights, opts.rank, seededInitA(opts.seed ?? 42));
    this.adapters = {};
    for (const [name, t] of Object.entries(fresh)) this.adapters[name] = tf.variable(t, true);
    if (!opts.adapters) tf.dispose(Object.values(fresh));
    const adapterOf = (name: string) => {
      const module = name.slice(0, -".weight".length);
      const a = this.adapters[`${module}.lora.A.weight`];
      const b = this.adapters[`${module}.lora.B.weight`];
      return a && b ? { a, b } : undefined;
    };
    this.model = new MiniMindTS(config, baseWeights, {
      ...modelOpts,
      effectiveWeight: (name, w) => {
        const ad = adapterOf(name);
        return ad ? fns.mergeLora(w as tf.Tensor2D, ad.a as tf.Tensor2D, ad.b as tf.Tensor2D, this.alpha) : w;
      },
    });
    const shapes: Record<string, number[]> = {};
    for (const [n, v] of Object.entries(this.model.params)) shapes[n] = [...v.shape];
    for (const [n, v] of Object.entries(this.adapters)) shapes[n] = [...v.shape];
    const summary = fns.trainableParams(shapes);
    const all: Record<string, tf.Variable> = { ...this.model.params, ...this.adapters };
    this.trainable = summary.trainable.map((n) => all[n]);
    this.counts = { trainableCount: summary.trainableCount, totalCount: summary.totalCount, fraction: summary.trainableCount / summary.totalCount };
  }

  /** Number of adapted layers. */
  get adaptedLayers(): number {
    return Object.keys(this.adapters).length / 2;
  }

  /** A plain MiniMindTS with every adapter folded into its weight (MiniMind's merge_lora). */
  merged(fns: Pick<LoraFunctions, "mergeLora">, modelOpts: ModelOptions = {}): MiniMindTS {
    const weights: Record<string, tf.Tensor> = {};
    for (const [name, w] of Object.entries(this.model.params)) {
      const module = name.slice(0, -".weight".length);
      const a = this.adapters[`${module}.lora.A.weight`];
      const b = this.adapters[`${module}.lora.B.weight`];
      weights[name] = a && b ? fns.mergeLora(w as tf.Tensor2D, a as tf.Tensor2D, b as tf.Tensor2D, this.alpha) : w;
    }
    try {
      return new MiniMindTS(this.model.config, weights, modelOpts);
    } finally {
      tf.dispose(Object.entries(weights).filter(([n]) => weights[n] !== this.model.params[n]).map(([, t]) => t));
    }
  }

  dispose(): void {
    this.model.dispose();
    tf.dispose(Object.values(this.adapters));
  }
}

/**
 * Writes only the adapters (MiniMind's save_lora, model_lora.py:45-53): their names, float32, and
 * rank and α as metadata. A tiny file beside a full checkpoint.
 */
export function saveAdapters(lora: LoraModel, path: string): void {
  const tensors: Record<string, StoredTensor> = {};
  for (const [name, v] of Object.entries(lora.adapters)) tensors[name] = { shape: [...v.shape], data: v.dataSync() as Float32Array };
  saveSafetensors(path, { tensors, metadata: { format: "pt", lora: JSON.stringify({ rank: lora.rank, alpha: lora.alpha }) } });
}

/**
 * Reads an adapter file written by `saveAdapters` (MiniMind's load_lora, model_lora.py:35-42):
 * the adapters and their rank and α. A name that is not "<module>.lora.A|B.weight" is an error.
 */
export function loadAdapters(path: string): { adapters: Record<string, tf.Tensor>; rank: number; alpha: number } {
  const file = loadSafetensors(path);
  const meta = JSON.parse(file.metadata.lora ?? "null") as { rank: number; alpha: number } | null;
  if (!meta) throw new Error(`${path} is not a LoRA adapter file (no "lora" metadata)`);
  const adapters: Record<string, tf.Tensor> = {};
  for (const [name, t] of Object.entries(file.tensors)) {
    if (!/\.lora\.[AB]\.weight$/.test(name)) throw new Error(`${path}: ${name} is not an adapter weight`);
    adapters[name] = tf.tensor(t.data, t.shape, "float32");
  }
  return { adapters, rank: meta.rank, alpha: meta.alpha };
}
