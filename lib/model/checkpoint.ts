/**
 * MiniMindTS checkpoints as safetensors files with MiniMind's parameter names, so a learner can
 * open one in Python (`safetensors.torch.load_file`) and load it into MiniMindForCausalLM with
 * `load_state_dict(weights, strict=False)`, as trainer/trainer_utils.py:119-127 does with .pth files.
 */
import * as tf from "../tf.js";
import { miniMindConfig, type MiniMindConfig } from "./config.js";
import { MiniMindTS, type ModelOptions } from "./model.js";
import { loadSafetensors, saveSafetensors, type StoredTensor } from "./safetensors.js";

/** Writes every parameter (float32) and the config (metadata "config", JSON) to `path`. */
export function saveModel(model: MiniMindTS, path: string): void {
  const tensors: Record<string, StoredTensor> = {};
  for (const [name, v] of Object.entries(model.params)) tensors[name] = { shape: [...v.shape], data: v.dataSync() as Float32Array };
  saveSafetensors(path, { tensors, metadata: { format: "pt", config: JSON.stringify(model.config) } });
}

/** Reads a checkpoint written by `saveModel` (or any file with the same names and shapes). */
export function loadModel(path: string, opts: ModelOptions & { config?: MiniMindConfig } = {}): MiniMindTS {
  const file = loadSafetensors(path);
  const config = opts.config ?? miniMindConfig(JSON.parse(file.metadata.config ?? "{}") as Partial<MiniMindConfig>);
  const weights: Record<string, tf.Tensor> = {};
  for (const [name, t] of Object.entries(file.tensors)) weights[name] = tf.tensor(t.data, t.shape, "float32");
  try {
    return new MiniMindTS(config, weights, opts);
  } finally {
    tf.dispose(Object.values(weights));
  }
}
