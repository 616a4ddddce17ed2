/**
 * A byte-level tokenizer for the first training runs: every UTF-8 byte is a token, after
 * MiniMind's three special tokens. Lesson 4's BPE replaces it later; the ids of the specials are
 * MiniMind's own (model/tokenizer_config.json: 0 <|endoftext|>, 1 <|im_start|>, 2 <|im_end|>).
 */
export const PAD_ID = 0;
export const BOS_ID = 1;
export const EOS_ID = 2;
/** Byte b is token b + 3. */
const BYTE_OFFSET = 3;
/** 3 specials + 256 bytes. */
export const BYTE_VOCAB_SIZE = BYTE_OFFSET + 256;

/** UTF-8 bytes of `text` as token ids (no specials added). */
export function encodeBytes(text: string): number[] {
  return Array.from(Buffer.from(text, "utf8"), (b) => b + BYTE_OFFSET);
}

/** Token ids back to text; special tokens are dropped, broken UTF-8 becomes U+FFFD. */
export function decodeBytes(ids: Iterable<number>): string {
  const bytes = [...ids].filter((id) => id >= BYTE_OFFSET && id < BYTE_VOCAB_SIZE).map((id) => id - BYTE_OFFSET);
  return Buffer.from(bytes).toString("utf8");
}
