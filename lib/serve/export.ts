/**
 * Conversion (MiniMind's scripts/convert_model.py:16-36): a MiniMindTS checkpoint as a Hugging
 * Face-style folder that MiniMind's PyTorch code loads: config.json with MiniMindConfig's field
 * names, model.safetensors with MiniMind's parameter names (lm_head.weight included, so that
 * `load_state_dict(strict=True)` takes it as it takes MiniMind's own .pth files), tokenizer.json and
 * tokenizer_config.json.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MiniMindConfig } from "../model/config.js";
import { names } from "../model/params.js";
import { loadSafetensors, saveSafetensors, type StoredTensor } from "../model/safetensors.js";
import { miniMindConfig } from "../model/config.js";
import { BYTE_VOCAB_SIZE } from "../model/byte-tokenizer.js";
import { BYTE_TO_CHAR, COURSE_TOKENIZER_PATH, loadTokenizer, tokenizerJson } from "../tokenizer.js";

/** MiniMindConfig's fields in MiniMind's own (snake_case) names: model/model_minimind.py:10-45. */
export function hfConfig(c: MiniMindConfig): Record<string, unknown> {
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

const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const MINIMIND_TOKENIZER_CONFIG = fileURLToPath(new URL("../../datasets/minimind-tokenizer/tokenizer_config.json", import.meta.url));

/** tokenizer.json for the byte tokenizer: 3 specials, then byte b as token 3 + b, no merges. */
function byteTokenizerJson(): string {
  const vocab: Record<string, number> = {};
  SPECIALS.forEach((s, i) => (vocab[s] = i));
  BYTE_TO_CHAR.forEach((ch, b) => (vocab[ch] = SPECIALS.length + b));
  return tokenizerJson({ merges: [], vocab, specialTokens: SPECIALS });
}

/** MiniMind's tokenizer_config.json fields (model/tokenizer_config.json), with its chat template when the course has a copy. */
function tokenizerConfig(maxLength: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    add_bos_token: false,
    add_eos_token: false,
    add_prefix_space: false,
    bos_token: "<|im_start|>",
    eos_token: "<|im_end|>",
    pad_token: "<|endoftext|>",
    unk_token: "<|endoftext|>",
    clean_up_tokenization_spaces: false,
    model_max_length: maxLength,
    tokenizer_class: "PreTrainedTokenizerFast",
  };
  if (existsSync(MINIMIND_TOKENIZER_CONFIG)) {
    const template = (JSON.parse(readFileSync(MINIMIND_TOKENIZER_CONFIG, "utf8")) as { chat_template?: string }).chat_template;
    if (template) out.chat_template = template;
  }
  return out;
}

export interface ExportResult {
  files: string[];
  config: MiniMindConfig;
  parameters: number;
}

/** Writes `outDir`/{config.json, model.safetensors, tokenizer.json, tokenizer_config.json} from a checkpoint file. */
export async function exportHf(checkpoint: string, outDir: string): Promise<ExportResult> {
  const file = loadSafetensors(checkpoint);
  const config = miniMindConfig(JSON.parse(file.metadata.config ?? "{}") as Partial<MiniMindConfig>);
  const tensors: Record<string, StoredTensor> = { ...file.tensors };
  if (config.tieWordEmbeddings && !tensors[names.lmHead]) tensors[names.lmHead] = tensors[names.embed];
  mkdirSync(outDir, { recursive: true });
  const files = ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"].map((f) => join(outDir, f));
  writeFileSync(files[0], JSON.stringify(hfConfig(config), null, 2) + "\n");
  saveSafetensors(files[1], { tensors, metadata: { format: "pt" } });
  const beside = join(dirname(checkpoint), "tokenizer.json");
  if (config.vocabSize === BYTE_VOCAB_SIZE) writeFileSync(files[2], byteTokenizerJson());
  else {
    const source = existsSync(beside) ? beside : COURSE_TOKENIZER_PATH;
    if (!existsSync(source) || loadTokenizer(source).vocabSize !== config.vocabSize) {
      throw new Error(`a vocabulary of ${config.vocabSize} needs the tokenizer.json it was trained with beside ${checkpoint}`);
    }
    copyFileSync(source, files[2]);
  }
  writeFileSync(files[3], JSON.stringify(tokenizerConfig(config.maxPositionEmbeddings), null, 2) + "\n");
  const parameters = Object.entries(file.tensors).reduce((n, [, t]) => n + t.data.length, 0);
  return { files, config, parameters };
}
