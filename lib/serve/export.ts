/**
 * `npm run export`: a MiniMindTS checkpoint (with a LoRA adapter merged in, when given) in one of
 * three layouts, each for a runtime outside the course:
 * - "minimind" (default): MiniMind's own class layout (scripts/convert_model.py:16-36): config.json
 *   with MiniMindConfig's field names, model.safetensors with MiniMind's parameter names
 *   (lm_head.weight included, so that `load_state_dict(strict=True)` takes it as it takes
 *   MiniMind's .pth files), tokenizer.json and tokenizer_config.json;
 * - "hf": the Qwen3 layout MiniMind's converter writes for transformers, vLLM and friends (./hf.ts);
 * - "gguf": one .gguf file for llama.cpp, Ollama and LM Studio (./gguf.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { MiniMindConfig } from "../model/config.js";
import { names } from "../model/params.js";
import { saveSafetensors, type StoredTensor } from "../model/safetensors.js";
import type { FunctionChoice, ResolveOptions } from "../resolver.js";
import { loadCheckpointWeights } from "./checkpoints.js";
import { exportTokenizerJson, tokenizerConfig } from "./export-tokenizer.js";
import { writeGguf } from "./gguf.js";
import { writeQwen3Layout } from "./hf.js";

export const EXPORT_FORMATS = ["minimind", "hf", "gguf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** MiniMindConfig's fields in MiniMind's own (snake_case) names: model/model_minimind.py:10-45. */
export function miniMindHfConfig(c: MiniMindConfig): Record<string, unknown> {
  return {
    architectures: ["MiniMindForCausalLM"],
    model_type: "minimind",
    hidden_size: c.hiddenSize,
    num_hidden_layers: c.numHiddenLayers,
    use_moe: c.useMoe,
    dropout: c.dropout,
    vocab_size: c.vocabSize,
    bos_token_id: c.bosTokenId,
    eos_token_id: c.eosTokenId,
    flash_attn: c.flashAttn,
    num_attention_heads: c.numAttentionHeads,
    num_key_value_heads: c.numKeyValueHeads,
    head_dim: c.headDim,
    hidden_act: c.hiddenAct,
    intermediate_size: c.intermediateSize,
    max_position_embeddings: c.maxPositionEmbeddings,
    rms_norm_eps: c.rmsNormEps,
    rope_theta: c.ropeTheta,
    tie_word_embeddings: c.tieWordEmbeddings,
    inference_rope_scaling: c.inferenceRopeScaling,
    num_experts: c.numExperts,
    num_experts_per_tok: c.numExpertsPerTok,
    moe_intermediate_size: c.moeIntermediateSize,
    norm_topk_prob: c.normTopkProb,
    router_aux_loss_coef: c.routerAuxLossCoef,
    torch_dtype: "float32",
  };
}

/** Writes MiniMind's class layout (see the module comment) to `outDir`; returns the paths. */
function writeMiniMindLayout(outDir: string, config: MiniMindConfig, weights: Record<string, StoredTensor>, tokenizer: string): string[] {
  const files = ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"].map((f) => join(outDir, f));
  const tensors = { ...weights };
  if (config.tieWordEmbeddings && !tensors[names.lmHead]) tensors[names.lmHead] = tensors[names.embed];
  writeFileSync(files[0], JSON.stringify(miniMindHfConfig(config), null, 2) + "\n");
  saveSafetensors(files[1], { tensors, metadata: { format: "pt" } });
  writeFileSync(files[2], tokenizer);
  writeFileSync(files[3], JSON.stringify(tokenizerConfig(config.maxPositionEmbeddings), null, 2) + "\n");
  return files;
}

export interface ExportOptions extends ResolveOptions {
  /** The layout (default "minimind"). */
  format?: ExportFormat;
  /** A LoRA adapter file to merge into the checkpoint first (lesson 18's mergeLora). */
  lora?: string;
  /** GGUF only: the matrices' type (default "f32"; norms stay float32). */
  dtype?: "f32" | "f16";
}

export interface ExportResult {
  files: string[];
  config: MiniMindConfig;
  parameters: number;
  /** Whose mergeLora merged the adapter (empty without one). */
  choices: FunctionChoice[];
}

/** The GGUF file's name in `outDir`: the adapter's name when merged, else the checkpoint's. */
function ggufName(checkpoint: string, lora: string | undefined): string {
  const from = lora ?? checkpoint;
  return basename(from, extname(from));
}

/** Exports `checkpoint` (with `opts.lora` merged) to `outDir` in `opts.format`. */
export async function exportModel(checkpoint: string, outDir: string, opts: ExportOptions = {}): Promise<ExportResult> {
  const { config, tensors, choices } = await loadCheckpointWeights(checkpoint, opts);
  const tokenizer = exportTokenizerJson(config, checkpoint);
  mkdirSync(outDir, { recursive: true });
  const format = opts.format ?? "minimind";
  let files: string[];
  if (format === "gguf") {
    const name = ggufName(checkpoint, opts.lora);
    const path = join(outDir, `${name}.gguf`);
    writeGguf(path, config, tensors, tokenizer, { dtype: opts.dtype ?? "f32", name });
    files = [path];
  } else if (format === "hf") files = writeQwen3Layout(outDir, config, tensors, tokenizer);
  else files = writeMiniMindLayout(outDir, config, tensors, tokenizer);
  const parameters = Object.values(tensors).reduce((n, t) => n + t.data.length, 0);
  return { files, config, parameters, choices };
}
