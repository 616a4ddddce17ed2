/**
 * A MiniMindTS checkpoint as a GGUF file for llama.cpp (`npm run export -- --format gguf`), and so
 * for Ollama and LM Studio, which run llama.cpp.
 *
 * MiniMind's graph is llama.cpp's `qwen3` architecture exactly (`qwen3moe` with experts): RMSNorm
 * before attention and FFN, a per-head RMSNorm on q and k before RoPE (model/model_minimind.py:117),
 * rotate-half RoPE with base θ (mm:80-84, llama.cpp's NEOX rope for qwen3), GQA (mm:86-89), SwiGLU
 * (mm:145-146), lm_head tied to the embedding (mm:242; llama.cpp reuses token_embd when there is no
 * `output.weight`). Weights keep their layout; only names change (convert_hf_to_gguf.py's
 * Qwen3Model maps the same Hugging Face names; Qwen3 needs no q/k permutation, unlike llama).
 * The tokenizer is byte-level BPE with the GPT-2 pre-tokenizer regex (tokenizer.ggml.model "gpt2",
 * pre "gpt-2"), MiniMind's special tokens as control tokens, and MiniMind's chat template.
 */
import type { MiniMindConfig } from "../model/config.js";
import { names } from "../model/params.js";
import type { StoredTensor } from "../model/safetensors.js";
import { bpeModelFromJson, parseTokenizerJson } from "../tokenizer.js";
import { chatTemplate } from "./export-tokenizer.js";
import { saveGguf, type GgufTensor, type GgufValue } from "./gguf-writer.js";

/** llama.cpp's token types (llama_token_type). */
const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4 } as const;

/** llama.cpp's general.file_type: all float32, or float16 for the matrices (LLAMA_FTYPE_ALL_F32 / MOSTLY_F16). */
const FILE_TYPE = { f32: 0, f16: 1 } as const;

/** The llama.cpp architecture a config maps to, or why it cannot be exported. */
function architecture(c: MiniMindConfig): "qwen3" | "qwen3moe" {
  if (c.inferenceRopeScaling) throw new Error("GGUF export of a model with inference_rope_scaling (YaRN) is not supported: export it without");
  if (c.hiddenAct !== "silu") throw new Error(`GGUF export needs hidden_act "silu" (llama.cpp's qwen3 uses SwiGLU), got "${c.hiddenAct}"`);
  // MiniMind's default MoE routes each token to one expert (model_minimind.py:42); with more,
  // llama.cpp's qwen3moe gave greedy text other than MiniMind's own PyTorch model in a check here
  // (logits 6e-3 apart where PyTorch and MiniMindTS agree to 3e-6), so that export is refused.
  if (c.useMoe && c.numExpertsPerTok !== 1) throw new Error(`GGUF export of a MoE model needs num_experts_per_tok 1 (MiniMind's default), got ${c.numExpertsPerTok}: llama.cpp's qwen3moe does not reproduce MiniMind's mixing of several experts`);
  return c.useMoe ? "qwen3moe" : "qwen3";
}

/** The GGUF metadata for `c`: the architecture's hyperparameters, then the tokenizer's. */
function metadata(c: MiniMindConfig, tokenizer: string, dtype: "f32" | "f16", name: string): Array<[string, GgufValue]> {
  const arch = architecture(c);
  const u32 = (value: number): GgufValue => ({ type: "u32", value });
  const f32 = (value: number): GgufValue => ({ type: "f32", value });
  const kv: Array<[string, GgufValue]> = [
    ["general.architecture", { type: "string", value: arch }],
    ["general.name", { type: "string", value: name }],
    ["general.file_type", u32(FILE_TYPE[dtype])],
    [`${arch}.context_length`, u32(c.maxPositionEmbeddings)],
    [`${arch}.embedding_length`, u32(c.hiddenSize)],
    [`${arch}.block_count`, u32(c.numHiddenLayers)],
    [`${arch}.feed_forward_length`, u32(c.intermediateSize)],
    [`${arch}.attention.head_count`, u32(c.numAttentionHeads)],
    [`${arch}.attention.head_count_kv`, u32(c.numKeyValueHeads)],
    [`${arch}.attention.key_length`, u32(c.headDim)],
    [`${arch}.attention.value_length`, u32(c.headDim)],
    [`${arch}.rope.freq_base`, f32(c.ropeTheta)],
    [`${arch}.attention.layer_norm_rms_epsilon`, f32(c.rmsNormEps)],
  ];
  if (c.useMoe) {
    kv.push([`${arch}.expert_count`, u32(c.numExperts)], [`${arch}.expert_used_count`, u32(c.numExpertsPerTok)], [`${arch}.expert_feed_forward_length`, u32(c.moeIntermediateSize)]);
  }
  return [...kv, ...tokenizerMetadata(c, tokenizer)];
}

/** tokenizer.ggml.*: every token by id, its type, the merges by rank, the special ids, the chat template. */
function tokenizerMetadata(c: MiniMindConfig, text: string): Array<[string, GgufValue]> {
  const tok = parseTokenizerJson(text);
  const model = bpeModelFromJson(text);
  const added = new Map((JSON.parse(text) as { added_tokens?: Array<{ id: number; special?: boolean }> }).added_tokens?.map((a) => [a.id, a.special ?? false]) ?? []);
  const tokens: string[] = [];
  const types: number[] = [];
  for (let id = 0; id < c.vocabSize; id++) {
    const t = tok.idToToken(id);
    if (t === undefined) throw new Error(`the tokenizer has no token with id ${id} (a GGUF vocabulary has no holes)`);
    tokens.push(t);
    types.push(added.has(id) ? (added.get(id) ? TOKEN_TYPE.control : TOKEN_TYPE.userDefined) : TOKEN_TYPE.normal);
  }
  const template = chatTemplate();
  return [
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "gpt-2" }],
    ["tokenizer.ggml.tokens", { type: "string[]", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32[]", value: types }],
    ["tokenizer.ggml.merges", { type: "string[]", value: model.merges.map(([a, b]) => `${a} ${b}`) }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: tok.bosId }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: tok.eosId }],
    ["tokenizer.ggml.padding_token_id", { type: "u32", value: tok.padId }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    ...(template ? [["tokenizer.chat_template", { type: "string", value: template }] as [string, GgufValue]] : []),
  ];
}

/** Experts' [out, in] matrices stacked into one [E, out, in] tensor (llama.cpp's *_exps). */
function stacked(parts: StoredTensor[]): StoredTensor {
  const data = new Float32Array(parts.reduce((n, p) => n + p.data.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p.data, at);
    at += p.data.length;
  }
  return { shape: [parts.length, ...parts[0].shape], data };
}

/**
 * The GGUF tensors of a checkpoint: llama.cpp's names (llama-arch.cpp's LLM_TENSOR_NAMES), the same
 * values; matrices in `dtype`, norms always float32 (as llama.cpp's converter keeps 1-D tensors).
 */
function tensorsOf(c: MiniMindConfig, w: Record<string, StoredTensor>, dtype: "f32" | "f16"): GgufTensor[] {
  const get = (name: string) => {
    const t = w[name];
    if (!t) throw new Error(`the checkpoint has no ${name}`);
    return t;
  };
  const out: GgufTensor[] = [];
  const add = (name: string, t: StoredTensor) => out.push({ name, shape: t.shape, data: t.data, dtype: t.shape.length === 1 ? "f32" : dtype });
  add("token_embd.weight", get(names.embed));
  for (let l = 0; l < c.numHiddenLayers; l++) {
    const blk = `blk.${l}`;
    add(`${blk}.attn_norm.weight`, get(names.inputNorm(l)));
    add(`${blk}.attn_q.weight`, get(names.attn(l, "q_proj")));
    add(`${blk}.attn_k.weight`, get(names.attn(l, "k_proj")));
    add(`${blk}.attn_v.weight`, get(names.attn(l, "v_proj")));
    add(`${blk}.attn_output.weight`, get(names.attn(l, "o_proj")));
    add(`${blk}.attn_q_norm.weight`, get(names.attn(l, "q_norm")));
    add(`${blk}.attn_k_norm.weight`, get(names.attn(l, "k_norm")));
    add(`${blk}.ffn_norm.weight`, get(names.postNorm(l)));
    const ffn = ["gate", "up", "down"] as const;
    if (c.useMoe) {
      add(`${blk}.ffn_gate_inp.weight`, get(names.router(l)));
      for (const p of ffn) add(`${blk}.ffn_${p}_exps.weight`, stacked(Array.from({ length: c.numExperts }, (_, e) => get(names.expert(l, e, `${p}_proj`)))));
    } else {
      for (const p of ffn) add(`${blk}.ffn_${p}.weight`, get(names.mlp(l, `${p}_proj`)));
    }
  }
  add("output_norm.weight", get(names.finalNorm));
  if (!c.tieWordEmbeddings) add("output.weight", get(names.lmHead));
  return out;
}

/** Writes `path` as a GGUF file of the checkpoint (`tokenizer`: its tokenizer.json text). */
export function writeGguf(path: string, config: MiniMindConfig, tensors: Record<string, StoredTensor>, tokenizer: string, opts: { dtype: "f32" | "f16"; name: string }): void {
  saveGguf(path, metadata(config, tokenizer, opts.dtype, opts.name), tensorsOf(config, tensors, opts.dtype));
}
