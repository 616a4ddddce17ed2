/**
 * Lesson 4 — The tokenizer: byte-level BPE as MiniMind trains it (trainer/train_tokenizer.py) and
 * as its model/tokenizer.json encodes.
 *
 * A model here is `{ merges, vocab, specialTokens }` (lib/byte-level.ts's BpeModel). The pieces
 * that are not the lesson's subject come from lib/byte-level.ts: `pretokenize` (the GPT-2 split),
 * `toByteLevel` and `CHAR_TO_BYTE` (GPT-2's byte ↔ character table). Read lessons/04-tokenizer.md
 * first; every function cites the MiniMind lines it mirrors at commit d65ef2c.
 */
import { BYTE_TO_CHAR, CHAR_TO_BYTE, pretokenize, toByteLevel, type BpeModel } from "../../lib/byte-level.js";
import { NotImplementedError } from "../../lib/errors.js";

// Your workspace: replace each `throw new NotImplementedError(...)` with your code (helper
// functions of your own are welcome), then run `npm run grade lesson-4`. Generated from
// solutions/ by `npm run stubs`; edit freely.

export type { BpeModel } from "../../lib/byte-level.js";

/**
 * Learns a byte-level BPE model from `texts`. Ids: `specialTokens` first (0…S−1), then the 256
 * byte characters sorted by code point, then one token per merge until the vocabulary holds
 * `vocabSize` entries or no pair is left. Each step merges the most frequent adjacent pair inside
 * pre-tokens; a tie goes to the pair with the smaller left id, then the smaller right id.
 * Special tokens are not looked for in the training texts. Throws a RangeError when
 * `vocabSize` < S + 256.
 *
 * Align with: trainer/train_tokenizer.py:24-50
 */
export function bpeTrain(texts: string[], vocabSize: number, specialTokens: string[]): BpeModel {
  throw new NotImplementedError("lesson-4", "bpeTrain");
}

/**
 * The ids of `text` under `model`, as Hugging Face's tokenizers encodes with MiniMind's
 * tokenizer.json: each special token's exact string becomes its one id (the longest wins where
 * two start at the same place); the rest is pre-tokenized, turned into byte characters, and
 * merged lowest rank first (leftmost first among equal ranks) inside each pre-token. Nothing is
 * added around the text; "" gives [].
 *
 * Align with: trainer/train_tokenizer.py:25-26, 50-52
 */
export function bpeEncode(model: BpeModel, text: string): number[] {
  throw new NotImplementedError("lesson-4", "bpeEncode");
}

/**
 * The text of `ids`: their tokens joined, each character mapped back to its byte, the bytes read
 * as UTF-8 with U+FFFD where a sequence is broken (an id list cut inside a character). A token
 * with a character outside the byte table contributes its own UTF-8 bytes. Unknown ids are
 * skipped.
 *
 * Align with: trainer/train_tokenizer.py:51
 */
export function bpeDecode(model: BpeModel, ids: number[]): string {
  throw new NotImplementedError("lesson-4", "bpeDecode");
}
