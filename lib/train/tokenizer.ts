/**
 * The one adapter between training and a tokenizer. Training asks for ids and text through
 * `TrainTokenizer` only, so changing tokenizer changes `trainTokenizer` and nothing else.
 *
 * Today: the course tokenizer of lib/tokenizer.ts (datasets/tokenizer/tokenizer.json: byte-level
 * BPE with MiniMind's special tokens at MiniMind's ids, 2,048 ids). Before it existed, training ran
 * on lib/model/byte-tokenizer.ts through this same interface.
 */
import { relative } from "node:path";
import { ROOT } from "../course/paths.js";
import { BOS_ID, BYTE_VOCAB_SIZE, decodeBytes, encodeBytes, EOS_ID, PAD_ID } from "../model/byte-tokenizer.js";
import { BOS_TOKEN, COURSE_TOKENIZER_PATH, courseTokenizer as bpeTokenizer, EOS_TOKEN, type TextTokenizer } from "../tokenizer.js";

export interface TrainTokenizer extends TextTokenizer {
  /** Shown in the run's header and run.json. */
  name: string;
  vocabSize: number;
}

/** The tokenizer training uses (see the module comment). */
export function trainTokenizer(): TrainTokenizer {
  const tok = bpeTokenizer();
  return Object.assign(Object.create(tok) as typeof tok, { name: `BPE (${relative(ROOT, COURSE_TOKENIZER_PATH)})` });
}

/** Generated text for a report: ids to text with the special tokens dropped. */
export function decodeText(tok: TrainTokenizer, ids: readonly number[]): string {
  return tok.decode(ids, { skipSpecialTokens: true });
}

/**
 * The byte-level stand-in (lib/model/byte-tokenizer.ts: MiniMind's three specials, then one id per
 * byte, 259 ids) behind the same interface, for labs that train on bytes.
 */
export function byteTokenizer(): TrainTokenizer {
  return {
    name: "bytes (lib/model/byte-tokenizer.ts)",
    vocabSize: BYTE_VOCAB_SIZE,
    bosToken: BOS_TOKEN,
    eosToken: EOS_TOKEN,
    bosId: BOS_ID,
    eosId: EOS_ID,
    padId: PAD_ID,
    encode: encodeBytes,
    decode: (ids) => decodeBytes(ids),
  };
}

/** @deprecated The byte tokenizer, under its first name (labs/post-training.ts); use `byteTokenizer` or `trainTokenizer`. */
export const courseTokenizer = byteTokenizer;
