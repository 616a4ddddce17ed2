/**
 * The byte-level pieces every BPE tokenizer here shares, and which lesson 4's exercise is given
 * rather than asked to write: GPT-2's byte ↔ character table, its pre-tokenizer split, a piece of
 * text as byte-level characters, and the shape of a BPE model. No encoding or decoding lives here
 * (that is lesson 4's `bpeEncode`/`bpeDecode`, and lib/tokenizer.ts's runtime tokenizer), so an
 * exercise of lesson 4 may import this module while lesson 4 is graded.
 */

/**
 * GPT-2's byte → character table: the printable bytes stand for themselves, the other 68 bytes
 * take the characters from U+0100 upward in byte order (space 0x20 is "Ġ", newline 0x0A is "Ċ").
 */
export const BYTE_TO_CHAR: readonly string[] = (() => {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out: string[] = [];
  let next = 0;
  for (let b = 0; b < 256; b++) out.push(String.fromCharCode(printable(b) ? b : 256 + next++));
  return out;
})();

/** The inverse of BYTE_TO_CHAR. */
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

/**
 * The ByteLevel pre-tokenizer's split (GPT-2's pattern): contractions, an optional space then
 * letters, digits or other symbols, and whitespace runs that leave their last space to the next
 * word. `\s` is spelled `\p{White_Space}`, which is what the Rust library's regex engine means.
 */
export const PRETOKENIZE_PATTERN =
  /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+/gu;

/** A text's pre-tokens (pieces no merge crosses), in order; they concatenate back to the text. */
export function pretokenize(text: string): string[] {
  return text.match(PRETOKENIZE_PATTERN) ?? [];
}

const utf8 = new TextEncoder();

/** A piece of text as byte-level characters: one character per UTF-8 byte. */
export function toByteLevel(piece: string): string {
  let out = "";
  for (const b of utf8.encode(piece)) out += BYTE_TO_CHAR[b];
  return out;
}

/** A byte-level BPE model as lesson 4's `bpeTrain` returns it. */
export interface BpeModel {
  /** Merges in the order they were learned (rank 0 first). */
  merges: Array<[string, string]>;
  /** Token → id, special tokens included. */
  vocab: Record<string, number>;
  /** Added tokens matched whole inside a text (MiniMind's 36), in id order. */
  specialTokens: string[];
}
