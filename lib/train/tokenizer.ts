/**
 * The one adapter between training and a tokenizer. Training asks for ids and text through
 * `TrainTokenizer` only, so moving from the byte tokenizer to lesson 4's BPE (lib/tokenizer.ts,
 * MiniMind's tokenizer.json) changes `courseTokenizer` and nothing else.
 *
 * Today: lib/model/byte-tokenizer.ts (259 ids: MiniMind's three specials, then one id per byte).
 */
import { BOS_ID, BYTE_VOCAB_SIZE, decodeBytes, encodeBytes, EOS_ID, PAD_ID } from "../model/byte-tokenizer.js";

export interface TrainTokenizer {
  /** Shown in the run's header and run.json. */
  name: string;
  vocabSize: number;
  /** `<|im_start|>`, MiniMind's bos_token. */
  bosId: number;
  /** `<|im_end|>`, MiniMind's eos_token. */
  eosId: number;
  /** `<|endoftext|>`, MiniMind's pad_token. */
  padId: number;
  /** Text to ids, no special tokens added. */
  encode(text: string): number[];
  /** Ids to text, special tokens dropped. */
  decode(ids: Iterable<number>): string;
}

/** The tokenizer training uses (see the module comment). */
export function courseTokenizer(): TrainTokenizer {
  return {
    name: "bytes (lib/model/byte-tokenizer.ts)",
    vocabSize: BYTE_VOCAB_SIZE,
    bosId: BOS_ID,
    eosId: EOS_ID,
    padId: PAD_ID,
    encode: encodeBytes,
    decode: decodeBytes,
  };
}
