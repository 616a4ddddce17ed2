/**
 * `npm run export -- --format hf`: the Qwen3 layout MiniMind's converter writes
 * (`convert_torch2transformers`, scripts/convert_model.py:40-96 at d65ef2c). transformers cannot be
 * installed here, so config.json is checked field by field against the converter as written: the
 * expected keys and values below are the converter's lines applied to the checkpoint's MiniMind
 * config (the minimind layout's config.json, i.e. the converter's `lm_config`), plus the defaults
 * of the class it instantiates (transformers' Qwen3Config / Qwen3MoeConfig) that save_pretrained
 * writes. Weights keep MiniMind's names (the converter loads them with strict=True, line 81) and
 * leave out the tied lm_head.weight.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { miniMindConfig } from "../lib/model/config.js";
import { parameterSpecs } from "../lib/model/params.js";
import { loadSafetensors } from "../lib/model/safetensors.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import { exportModel, miniMindHfConfig } from "../lib/serve/export.js";
import { qwen3Config } from "../lib/serve/hf.js";

const OUT = mkdtempSync(join(tmpdir(), "minimind-hf-"));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));
const readJson = (f: string) => JSON.parse(readFileSync(join(OUT, f), "utf8")) as Record<string, unknown>;

/**
 * config.json as convert_torch2transformers produces it from MiniMind's `lm_config` (snake_case).
 * Every key is named with the converter line or the transformers default it comes from.
 */
function expectedFromConverter(lm: Record<string, unknown>): Record<string, unknown> {
  const moe = lm.use_moe === true;
  const common = {
    // convert_model.py:43-55, common_config
    vocab_size: lm.vocab_size,
    hidden_size: lm.hidden_size,
    intermediate_size: lm.intermediate_size,
    num_hidden_layers: lm.num_hidden_layers,
    num_attention_heads: lm.num_attention_heads,
    num_key_value_heads: lm.num_key_value_heads,
    head_dim: Math.floor((lm.hidden_size as number) / (lm.num_attention_heads as number)),
    max_position_embeddings: lm.max_position_embeddings,
    rms_norm_eps: lm.rms_norm_eps,
    rope_theta: lm.rope_theta,
    tie_word_embeddings: lm.tie_word_embeddings,
  };
  const byClass = moe
    ? {
        // convert_model.py:64-70, Qwen3MoeConfig(**common_config, num_experts=…, …)
        num_experts: lm.num_experts,
        num_experts_per_tok: lm.num_experts_per_tok,
        moe_intermediate_size: lm.moe_intermediate_size,
        norm_topk_prob: lm.norm_topk_prob,
        // Qwen3MoeConfig's defaults (configuration_qwen3_moe.py); use_sliding_window False → sliding_window None
        decoder_sparse_step: 1,
        mlp_only_layers: [],
        output_router_logits: false,
        router_aux_loss_coef: 0.001,
        use_sliding_window: false,
        sliding_window: null,
      }
    : {
        // convert_model.py:57-61, Qwen3Config(**common_config, use_sliding_window=False, sliding_window=None)
        use_sliding_window: false,
        sliding_window: null,
        // Qwen3Config's defaults (configuration_qwen3.py): max_window_layers 28; layer_types all full attention without a window
        max_window_layers: 28,
        layer_types: Array.from({ length: lm.num_hidden_layers as number }, () => "full_attention"),
      };
  return {
    // save_pretrained: the class and model type
    architectures: [moe ? "Qwen3MoeForCausalLM" : "Qwen3ForCausalLM"],
    model_type: moe ? "qwen3_moe" : "qwen3",
    ...common,
    ...byClass,
    // Qwen3Config / Qwen3MoeConfig defaults the converter does not pass
    hidden_act: "silu",
    initializer_range: 0.02,
    use_cache: true,
    attention_bias: false,
    attention_dropout: 0,
    // convert_model.py:94: rope_theta kept, rope_scaling None, rope_parameters deleted
    rope_scaling: null,
    // The course's one addition (Qwen3Config fields the converter leaves None): the ids generation stops at
    bos_token_id: lm.bos_token_id,
    eos_token_id: lm.eos_token_id,
    // the weights' dtype: the course exports float32 (the converter's default is float16, line 40)
    torch_dtype: "float32",
  };
}

describe("npm run export -- --format hf (Qwen3 layout)", () => {
  it("writes config.json exactly as MiniMind's converter would, key for key", async () => {
    const r = await exportModel(TINY_CHAT_CHECKPOINT, OUT, { format: "hf" });
    expect(r.files.map((f) => f.slice(OUT.length + 1))).toEqual(["config.json", "generation_config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]);
    const config = readJson("config.json");
    const expected = expectedFromConverter(miniMindHfConfig(r.config));
    expect(Object.keys(config).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect(config[key], key).toEqual(expected[key]);
    expect(config).not.toHaveProperty("rope_parameters");
  });

  it("gives a MoE model Qwen3MoeConfig's keys (convert_model.py:63-71)", () => {
    const moe = miniMindConfig({ vocabSize: 259, hiddenSize: 64, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, useMoe: true, numExperts: 4, numExpertsPerTok: 2 });
    const got = qwen3Config(moe);
    const expected = expectedFromConverter(miniMindHfConfig(moe));
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const key of Object.keys(expected)) expect(got[key], key).toEqual(expected[key]);
  });

  it("keeps MiniMind's (= Qwen3's) weight names and values, without the tied lm_head.weight", () => {
    const weights = loadSafetensors(join(OUT, "model.safetensors")).tensors;
    const source = loadSafetensors(TINY_CHAT_CHECKPOINT);
    const config = miniMindConfig(JSON.parse(source.metadata.config!));
    expect(config.tieWordEmbeddings).toBe(true);
    expect(Object.keys(weights).sort()).toEqual(parameterSpecs(config).map((s) => s.name).sort());
    expect(weights).not.toHaveProperty("lm_head.weight");
    for (const [name, t] of Object.entries(weights)) expect(Array.from(t.data), name).toEqual(Array.from(source.tensors[name].data));
  });

  it("carries the tokenizer files, MiniMind's chat template and a generation_config.json that stops at <|im_end|>", () => {
    const tokenizerConfig = readJson("tokenizer_config.json");
    const minimind = JSON.parse(readFileSync(join(import.meta.dirname, "..", "datasets", "minimind-tokenizer", "tokenizer_config.json"), "utf8")) as Record<string, unknown>;
    expect(tokenizerConfig.chat_template).toBe(minimind.chat_template);
    // convert_model.py:92
    expect(tokenizerConfig).toMatchObject({ tokenizer_class: "PreTrainedTokenizerFast", extra_special_tokens: {}, bos_token: minimind.bos_token, eos_token: minimind.eos_token, pad_token: minimind.pad_token });
    const tok = JSON.parse(readFileSync(join(OUT, "tokenizer.json"), "utf8")) as { added_tokens: Array<{ content: string; id: number }>; model: { vocab: Record<string, number> } };
    expect(tok.added_tokens.find((t) => t.content === "<|im_end|>")?.id).toBe(2);
    expect(Object.keys(tok.model.vocab)).toHaveLength(259);
    expect(readJson("generation_config.json")).toMatchObject({ bos_token_id: 1, eos_token_id: 2 });
    expect(readJson("special_tokens_map.json")).toEqual({ bos_token: "<|im_start|>", eos_token: "<|im_end|>", pad_token: "<|endoftext|>", unk_token: "<|endoftext|>" });
  });
});
