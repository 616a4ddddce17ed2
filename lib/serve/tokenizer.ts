/**
 * The one adapter between the server and a tokenizer: text with chat special tokens in, ids out,
 * and back. Which tokenizer is chosen by the checkpoint: a model trained on byte tokens
 * (vocabulary 259, lib/model/byte-tokenizer.ts) reads byte tokens; any other vocabulary needs the
 * course's BPE tokenizer (lesson 4) and its tokenizer.json beside the checkpoint.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
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

/** What lib/tokenizer.ts's loadTokenizer returns, as far as the server needs it. */
interface LoadedTokenizer {
  vocabSize: number;
  encode(text: string): number[];
  decode(ids: readonly number[], opts?: { skipSpecialTokens?: boolean }): string;
}

/**
 * The tokenizer a checkpoint with `vocabSize` tokens was trained with: byte tokens for a
 * vocabulary of 259, else the BPE tokenizer.json beside the checkpoint (lib/tokenizer.ts). Throws
 * saying what is missing.
 */
export async function tokenizerFor(vocabSize: number, checkpoint: string): Promise<ChatTokenizer> {
  if (vocabSize === BYTE_VOCAB_SIZE) return byteChatTokenizer();
  const file = join(dirname(checkpoint), "tokenizer.json");
  if (!existsSync(file)) {
    throw new Error(`this checkpoint has a vocabulary of ${vocabSize} tokens, not the byte tokenizer's ${BYTE_VOCAB_SIZE}: put the tokenizer.json it was trained with beside it (${file})`);
  }
  // Imported by URL so that the server also runs in a copy of the course that lacks lib/tokenizer.ts.
  const mod = (await import(new URL("../tokenizer.ts", import.meta.url).href)) as { loadTokenizer: (path: string) => LoadedTokenizer };
  const t = mod.loadTokenizer(file);
  if (t.vocabSize !== vocabSize) throw new Error(`${file} has ${t.vocabSize} tokens but the checkpoint's embedding has ${vocabSize}`);
  return { name: `BPE, ${vocabSize} tokens (${file})`, vocabSize, encode: (s) => t.encode(s), decode: (ids) => t.decode(ids, { skipSpecialTokens: true }) };
}
