/**
 * The Hugging Face Qwen3 layout (`npm run export -- --format hf`): what MiniMind's
 * `convert_torch2transformers` (scripts/convert_model.py:40-96 at d65ef2c) writes so that standard
 * tools load a MiniMind model without its code: transformers' `AutoModelForCausalLM`, vLLM, TRL,
 * AReaL. MiniMind's graph is Qwen3's (RMSNorm on q and k per head, rotate-half RoPE, GQA, SwiGLU,
 * tied embeddings) and its parameter names are Qwen3ForCausalLM's, which is why the converter can
 * `load_state_dict(strict=True)` MiniMind's weights into a Qwen3 model unchanged (line 81).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MiniMindConfig } from "../model/config.js";
import { names } from "../model/params.js";
import { saveSafetensors, type StoredTensor } from "../model/safetensors.js";
import { BOS_TOKEN, EOS_TOKEN, PAD_TOKEN } from "../tokenizer.js";
import { tokenizerConfig } from "./export-tokenizer.js";

/**
 * config.json of the Qwen3 layout for `c`. The first block is the converter's `common_config`
 * (convert_model.py:43-55) and its Qwen3Config arguments (58-60) or Qwen3MoeConfig's (64-70); the
 * rest is what `Qwen3Config.save_pretrained` adds: the class's defaults the converter leaves alone
 * (transformers' models/qwen3/configuration_qwen3.py and qwen3_moe/configuration_qwen3_moe.py),
 * `rope_scaling: null` and no `rope_parameters` (the converter's transformers-5 fix, lines 93-95),
 * and the model's class and dtype. Deviation, on purpose: `bos_token_id`/`eos_token_id`, which the
 * converter leaves at Qwen3Config's None, carry the model's ids so that `generate` stops at
 * <|im_end|> without being told. `head_dim` is the model's own; the converter computes
 * hidden_size / num_attention_heads (line 50), which is the same unless head_dim was set apart.
 *
 * Align with: scripts/convert_model.py:40-96
 */
export function qwen3Config(c: MiniMindConfig): Record<string, unknown> {
  const moe = c.useMoe
    ? { num_experts: c.numExperts, num_experts_per_tok: c.numExpertsPerTok, moe_intermediate_size: c.moeIntermediateSize, norm_topk_prob: c.normTopkProb }
    : { use_sliding_window: false, sliding_window: null };
  const classDefaults = c.useMoe
    ? { decoder_sparse_step: 1, mlp_only_layers: [], output_router_logits: false, router_aux_loss_coef: 0.001, use_sliding_window: false, sliding_window: null }
    : { max_window_layers: 28, layer_types: Array.from({ length: c.numHiddenLayers }, () => "full_attention") };
  return {
    architectures: [c.useMoe ? "Qwen3MoeForCausalLM" : "Qwen3ForCausalLM"],
    model_type: c.useMoe ? "qwen3_moe" : "qwen3",
    vocab_size: c.vocabSize,
    hidden_size: c.hiddenSize,
    intermediate_size: c.intermediateSize,
    num_hidden_layers: c.numHiddenLayers,
    num_attention_heads: c.numAttentionHeads,
    num_key_value_heads: c.numKeyValueHeads,
    head_dim: c.headDim,
    max_position_embeddings: c.maxPositionEmbeddings,
    rms_norm_eps: c.rmsNormEps,
    rope_theta: c.ropeTheta,
    tie_word_embeddings: c.tieWordEmbeddings,
    ...moe,
    hidden_act: c.hiddenAct,
    initializer_range: 0.02,
    use_cache: true,
    attention_bias: false,
    attention_dropout: 0.0,
    ...classDefaults,
    rope_scaling: null,
    bos_token_id: c.bosTokenId,
    eos_token_id: c.eosTokenId,
    torch_dtype: "float32",
  };
}

/** generation_config.json (what `save_pretrained` writes beside config.json), with the ids generation stops at. */
export function generationConfig(c: MiniMindConfig): Record<string, unknown> {
  return { _from_model_config: true, bos_token_id: c.bosTokenId, eos_token_id: c.eosTokenId, pad_token_id: 0 };
}

/**
 * Writes the Qwen3 layout to `outDir`: config.json, generation_config.json, model.safetensors
 * (float32, MiniMind's = Qwen3's names; lm_head.weight left out when tied, as `save_pretrained`
 * leaves tied weights out), tokenizer.json, tokenizer_config.json (MiniMind's, with its chat
 * template and the converter's `extra_special_tokens`, line 92) and special_tokens_map.json.
 * Returns the paths written.
 */
export function writeQwen3Layout(outDir: string, config: MiniMindConfig, tensors: Record<string, StoredTensor>, tokenizer: string): string[] {
  const file = (f: string) => join(outDir, f);
  const json = (f: string, v: unknown) => writeFileSync(file(f), JSON.stringify(v, null, 2) + "\n");
  json("config.json", qwen3Config(config));
  json("generation_config.json", generationConfig(config));
  const weights = { ...tensors };
  if (config.tieWordEmbeddings) delete weights[names.lmHead];
  saveSafetensors(file("model.safetensors"), { tensors: weights, metadata: { format: "pt" } });
  writeFileSync(file("tokenizer.json"), tokenizer);
  json("tokenizer_config.json", { ...tokenizerConfig(config.maxPositionEmbeddings), extra_special_tokens: {} });
  json("special_tokens_map.json", { bos_token: BOS_TOKEN, eos_token: EOS_TOKEN, pad_token: PAD_TOKEN, unk_token: PAD_TOKEN });
  return ["config.json", "generation_config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"].map(file);
}
