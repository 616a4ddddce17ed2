/**
 * Where the server's checkpoints live, and how serve and export read one: a full checkpoint, or a
 * base checkpoint with a LoRA adapter file merged into it (MiniMind's `--lora_weight` and
 * `merge_lora`, model/model_lora.py:56-65), with lesson 18's `mergeLora` through the resolver.
 */
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as tf from "../tf.js";
import { miniMindConfig, type MiniMindConfig } from "../model/config.js";
import { parameterSpecs } from "../model/params.js";
import { loadSafetensors, saveSafetensors, type SafetensorsFile, type StoredTensor } from "../model/safetensors.js";
import type { LoraFunctions } from "../model/lora.js";
import { resolveFunction, type FunctionChoice, type ResolveOptions } from "../resolver.js";

/** The course's small chat checkpoint (tools/serve/make-tiny-chat.ts), served when no --checkpoint is given. */
export const TINY_CHAT_CHECKPOINT = fileURLToPath(new URL("../../datasets/checkpoints/tiny-chat.safetensors", import.meta.url));

/** A checkpoint's tensors (MiniMind names, float32) and config. */
export interface CheckpointWeights {
  config: MiniMindConfig;
  tensors: Record<string, StoredTensor>;
  /** Whose `mergeLora` merged the adapter (empty without --lora). */
  choices: FunctionChoice[];
}

/** Thrown for a checkpoint or adapter that cannot be used; the message is one line for the learner. */
export class CheckpointError extends Error {}

/** The config fields that decide which weights exist and their shapes. */
const SHAPE_FIELDS = ["vocabSize", "hiddenSize", "numHiddenLayers", "numAttentionHeads", "numKeyValueHeads", "headDim", "intermediateSize", "useMoe", "numExperts"] as const;

const ADAPTER_NAME = /^(.+)\.lora\.([AB])\.weight$/;

/** True when every tensor of `file` is a LoRA adapter weight ("<module>.lora.A|B.weight"): the file has no base weights. */
export function isAdapterFile(file: SafetensorsFile): boolean {
  const names = Object.keys(file.tensors);
  return names.length > 0 && names.every((n) => ADAPTER_NAME.test(n));
}

/** The answer to an adapter file given where a full checkpoint belongs. */
function adapterOnlyError(path: string): CheckpointError {
  return new CheckpointError(`${path} holds LoRA adapters only, no base model: pass the base checkpoint as --checkpoint and this file as --lora ${path}`);
}

function readFile(path: string, what: string): SafetensorsFile {
  if (!existsSync(path)) throw new CheckpointError(`no ${what} at ${path}`);
  try {
    return loadSafetensors(path);
  } catch (err) {
    throw new CheckpointError(`${path} is not a readable safetensors file (${(err as Error).message})`);
  }
}

/**
 * The base checkpoint `path`, checked against the parameters its config needs. An adapter-only
 * file is refused with a message naming `--lora`.
 */
function readBase(path: string): { config: MiniMindConfig; tensors: Record<string, StoredTensor> } {
  const file = readFile(path, "checkpoint file");
  if (isAdapterFile(file)) throw adapterOnlyError(path);
  const config = miniMindConfig(JSON.parse(file.metadata.config ?? "{}") as Partial<MiniMindConfig>);
  for (const spec of parameterSpecs(config)) {
    const t = file.tensors[spec.name];
    if (!t) throw new CheckpointError(`${path} has no ${spec.name}, which its config needs: is it a MiniMindTS checkpoint?`);
    if (t.shape.join(",") !== spec.shape.join(",")) throw new CheckpointError(`${path}: ${spec.name} has shape [${t.shape}], its config needs [${spec.shape}]`);
  }
  return { config, tensors: file.tensors };
}

/** The adapters of `path` by module ("model.layers.0.self_attn.q_proj"), each A [r, in] and B [out, r], and α. */
function readAdapters(path: string): { modules: Map<string, { a: StoredTensor; b: StoredTensor }>; alpha: (rank: number) => number; trainedOn: MiniMindConfig | null } {
  const file = readFile(path, "LoRA adapter file");
  if (!isAdapterFile(file)) {
    throw new CheckpointError(`--lora ${path} is not a LoRA adapter file (its tensors are not all "<module>.lora.A|B.weight"); a full checkpoint goes in --checkpoint`);
  }
  const parts = new Map<string, { a?: StoredTensor; b?: StoredTensor }>();
  for (const [name, t] of Object.entries(file.tensors)) {
    const [, module, which] = ADAPTER_NAME.exec(name)!;
    const entry = parts.get(module) ?? {};
    entry[which === "A" ? "a" : "b"] = t;
    parts.set(module, entry);
  }
  const modules = new Map<string, { a: StoredTensor; b: StoredTensor }>();
  for (const [module, { a, b }] of parts) {
    if (!a || !b) throw new CheckpointError(`--lora ${path}: ${module} has lora.${a ? "A" : "B"} without lora.${a ? "B" : "A"}`);
    modules.set(module, { a, b });
  }
  // saveAdapters records α; the training run's file does not, and trains with α = r (MiniMind's scale 1).
  const meta = JSON.parse(file.metadata.lora ?? "null") as { alpha?: number } | null;
  // A training run's adapter file records the config of the model it was trained on.
  const trainedOn = file.metadata.config ? miniMindConfig(JSON.parse(file.metadata.config) as Partial<MiniMindConfig>) : null;
  return { modules, alpha: (rank) => meta?.alpha ?? rank, trainedOn };
}

/**
 * The weights of `checkpoint`, with the adapters of `lora` (when given) folded in by lesson 18's
 * `mergeLora`: W' = W + (α/r)·B·A for each adapted module. Every adapter must name a weight of the
 * base with matching shapes, and an adapter that records the config it was trained on must have
 * been trained on this architecture; otherwise a CheckpointError says which and why.
 *
 * Align with: model/model_lora.py:35-42, 56-65
 */
export async function loadCheckpointWeights(checkpoint: string, opts: { lora?: string } & ResolveOptions = {}): Promise<CheckpointWeights> {
  const base = readBase(checkpoint);
  if (!opts.lora) return { ...base, choices: [] };
  const { modules, alpha, trainedOn } = readAdapters(opts.lora);
  const misfit = (why: string) => new CheckpointError(`--lora ${opts.lora} does not fit the base model ${checkpoint}: ${why}`);
  if (trainedOn) {
    for (const key of SHAPE_FIELDS) {
      if (trainedOn[key] !== base.config[key]) throw misfit(`it was trained on a model with ${key} ${trainedOn[key]}, the base has ${base.config[key]}`);
    }
  }
  for (const [module, { a, b }] of modules) {
    const w = base.tensors[`${module}.weight`];
    if (!w) throw misfit(`the base has no ${module}.weight`);
    const [out, inner] = w.shape;
    if (a.shape.length !== 2 || b.shape.length !== 2 || a.shape[1] !== inner || b.shape[0] !== out || b.shape[1] !== a.shape[0]) {
      throw misfit(`${module} is [${w.shape}] but its adapter has A [${a.shape}] and B [${b.shape}] (needs A [r, ${inner}], B [${out}, r])`);
    }
  }
  const resolution = await resolveFunction<LoraFunctions["mergeLora"]>("lesson-18", "mergeLora", opts);
  const tensors = { ...base.tensors };
  for (const [module, { a, b }] of modules) {
    const name = `${module}.weight`;
    const w = base.tensors[name];
    const merged = tf.tidy(() =>
      resolution.fn(tf.tensor2d(w.data, w.shape as [number, number]), tf.tensor2d(a.data, a.shape as [number, number]), tf.tensor2d(b.data, b.shape as [number, number]), alpha(a.shape[0])),
    );
    tensors[name] = { shape: [...w.shape], data: merged.dataSync() as Float32Array };
    merged.dispose();
  }
  return { config: base.config, tensors, choices: [{ lesson: "lesson-18", name: "mergeLora", source: resolution.source, why: resolution.why }] };
}

/** True when the safetensors file at `path` holds LoRA adapter weights only (read from its header alone). */
export function adapterOnly(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const size = Buffer.alloc(8);
    if (readSync(fd, size, 0, 8, 0) < 8) return false;
    const length = Number(size.readBigUInt64LE(0));
    if (length > 100_000_000) return false;
    const header = Buffer.alloc(length);
    readSync(fd, header, 0, length, 8);
    const names = Object.keys(JSON.parse(header.toString("utf8")) as Record<string, unknown>).filter((n) => n !== "__metadata__");
    return names.length > 0 && names.every((n) => ADAPTER_NAME.test(n));
  } catch {
    return false; // not a safetensors file: the loader says so in its own words
  } finally {
    closeSync(fd);
  }
}

/**
 * What `npm run serve` serves for `--checkpoint` and `--lora`: the checkpoint itself without an
 * adapter, else the merge (`mergedCheckpoint`), removed when the process exits. An adapter-only
 * file given as the checkpoint is a CheckpointError naming --lora.
 */
export async function servedCheckpoint(checkpoint: string, lora: string | undefined, opts: ResolveOptions = {}): Promise<{ path: string; choices: FunctionChoice[] }> {
  if (!lora) {
    if (adapterOnly(checkpoint)) throw adapterOnlyError(checkpoint);
    return { path: checkpoint, choices: [] };
  }
  const merged = await mergedCheckpoint(checkpoint, lora, opts);
  process.on("exit", merged.dispose);
  return { path: merged.path, choices: merged.choices };
}

/**
 * For the server: `checkpoint` with `lora` merged, written to a temporary folder as
 * "<adapter name>.safetensors" (the served model's id) with the base's tokenizer.json beside it.
 * `dispose` removes the folder.
 */
export async function mergedCheckpoint(checkpoint: string, lora: string, opts: ResolveOptions = {}): Promise<{ path: string; choices: FunctionChoice[]; dispose: () => void }> {
  const w = await loadCheckpointWeights(checkpoint, { ...opts, lora });
  const dir = mkdtempSync(join(tmpdir(), "minimind-lora-"));
  const path = join(dir, basename(lora));
  saveSafetensors(path, { tensors: w.tensors, metadata: { format: "pt", config: JSON.stringify(w.config) } });
  const tokenizer = join(dirname(checkpoint), "tokenizer.json");
  if (existsSync(tokenizer)) copyFileSync(tokenizer, join(dir, "tokenizer.json"));
  return { path, choices: w.choices, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
