/**
 * The tokenizer files every export format carries: the tokenizer.json a checkpoint was trained with
 * (the byte tokenizer's written out, or the BPE file beside the checkpoint or the course's), and
 * MiniMind's tokenizer_config.json fields with its chat template (model/tokenizer_config.json).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MiniMindConfig } from "../model/config.js";
import { BYTE_VOCAB_SIZE } from "../model/byte-tokenizer.js";
import { BOS_TOKEN, BYTE_TO_CHAR, COURSE_TOKENIZER_PATH, EOS_TOKEN, PAD_TOKEN, parseTokenizerJson, tokenizerJson } from "../tokenizer.js";

const BYTE_SPECIALS = [PAD_TOKEN, BOS_TOKEN, EOS_TOKEN];
const MINIMIND_TOKENIZER_CONFIG = fileURLToPath(new URL("../../datasets/minimind-tokenizer/tokenizer_config.json", import.meta.url));

/** tokenizer.json for the byte tokenizer: 3 specials, then byte b as token 3 + b, no merges. */
function byteTokenizerJson(): string {
  const vocab: Record<string, number> = {};
  BYTE_SPECIALS.forEach((s, i) => (vocab[s] = i));
  BYTE_TO_CHAR.forEach((ch, b) => (vocab[ch] = BYTE_SPECIALS.length + b));
  return tokenizerJson({ merges: [], vocab, specialTokens: BYTE_SPECIALS });
}

/**
 * The text of the tokenizer.json `config` was trained with: the byte tokenizer's for a vocabulary
 * of 259, else tokenizer.json beside `checkpoint`, else the course's; refused (with what to do)
 * when its size is not the checkpoint's or the course's runtime cannot read it.
 */
export function exportTokenizerJson(config: MiniMindConfig, checkpoint: string): string {
  if (config.vocabSize === BYTE_VOCAB_SIZE) return byteTokenizerJson();
  const beside = join(dirname(checkpoint), "tokenizer.json");
  const source = existsSync(beside) ? beside : COURSE_TOKENIZER_PATH;
  const text = existsSync(source) ? readFileSync(source, "utf8") : "";
  if (!text || parseTokenizerJson(text, source).vocabSize !== config.vocabSize) {
    throw new Error(`a vocabulary of ${config.vocabSize} needs the tokenizer.json it was trained with beside ${checkpoint}`);
  }
  return text;
}

/** MiniMind's chat template (model/tokenizer_config.json's `chat_template`), when the course has a copy. */
export function chatTemplate(): string | undefined {
  if (!existsSync(MINIMIND_TOKENIZER_CONFIG)) return undefined;
  return (JSON.parse(readFileSync(MINIMIND_TOKENIZER_CONFIG, "utf8")) as { chat_template?: string }).chat_template || undefined;
}

/** MiniMind's tokenizer_config.json fields (model/tokenizer_config.json), with its chat template when the course has a copy. */
export function tokenizerConfig(maxLength: number): Record<string, unknown> {
  const template = chatTemplate();
  return {
    add_bos_token: false,
    add_eos_token: false,
    add_prefix_space: false,
    bos_token: BOS_TOKEN,
    eos_token: EOS_TOKEN,
    pad_token: PAD_TOKEN,
    unk_token: PAD_TOKEN,
    clean_up_tokenization_spaces: false,
    model_max_length: maxLength,
    tokenizer_class: "PreTrainedTokenizerFast",
    ...(template ? { chat_template: template } : {}),
  };
}
