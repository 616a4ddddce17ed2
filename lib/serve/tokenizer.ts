/**
 * The one adapter between the server and a tokenizer: text with chat special tokens in, ids out,
 * and back. Which tokenizer is chosen by the checkpoint: a model trained on byte tokens
 * (vocabulary 259, lib/model/byte-tokenizer.ts) reads byte tokens; any other vocabulary reads the
 * BPE tokenizer.json it was trained with (lib/tokenizer.ts, lesson 4).
 */
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT } from "../course/paths.js";
import { COURSE_TOKENIZER_PATH, loadTokenizer } from "../tokenizer.js";
import { BYTE_VOCAB_SIZE, decodeBytes, encodeBytes } from "../model/byte-tokenizer.js";

export interface ChatTokenizer {
  /** "byte-level (259 tokens)" or the BPE file's name, for the start-up banner. */
  name: string;
  vocabSize: number;
  /** Text to ids; `<|endoftext|>`, `<|im_start|>` and `<|im_end|>` become their special ids. */
  encode(text: string): number[];
  /** Ids to text, special tokens dropped (MiniMind's skip_special_tokens=True). */
  decode(ids: readonly number[]): string;
}

/** The byte tokenizer's specials: MiniMind's ids 0, 1, 2 (model/tokenizer_config.json). */
const BYTE_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];
const SPECIAL_SPLIT = /(<\|endoftext\|>|<\|im_start\|>|<\|im_end\|>)/;

/** Byte tokens with MiniMind's three special tokens recognised in the text. */
export function byteChatTokenizer(): ChatTokenizer {
  return {
    name: `byte-level (${BYTE_VOCAB_SIZE} tokens: 3 specials + 256 bytes)`,
    vocabSize: BYTE_VOCAB_SIZE,
    encode: (text) => text.split(SPECIAL_SPLIT).flatMap((part) => (BYTE_SPECIALS.includes(part) ? [BYTE_SPECIALS.indexOf(part)] : encodeBytes(part))),
    decode: (ids) => decodeBytes(ids),
  };
}

/**
 * The tokenizer a checkpoint with `vocabSize` tokens was trained with: byte tokens for a
 * vocabulary of 259; else the tokenizer.json beside the checkpoint; else the course's BPE tokenizer
 * (datasets/tokenizer/tokenizer.json, what `npm run train` uses) when its size matches. Throws
 * saying what is missing.
 */
export function tokenizerFor(vocabSize: number, checkpoint: string): ChatTokenizer {
  if (vocabSize === BYTE_VOCAB_SIZE) return byteChatTokenizer();
  const beside = join(dirname(checkpoint), "tokenizer.json");
  const file = existsSync(beside) ? beside : COURSE_TOKENIZER_PATH;
  if (!existsSync(file)) throw new Error(`this checkpoint has a vocabulary of ${vocabSize} tokens: put the tokenizer.json it was trained with beside it (${beside})`);
  const t = loadTokenizer(file);
  if (t.vocabSize !== vocabSize) {
    throw new Error(`the checkpoint's embedding has ${vocabSize} tokens but ${file} has ${t.vocabSize}: put the tokenizer.json it was trained with beside it (${beside})`);
  }
  return { name: `BPE, ${vocabSize} tokens (${relative(ROOT, file)})`, vocabSize, encode: (s) => t.encode(s), decode: (ids) => t.decode(ids, { skipSpecialTokens: true }) };
}
