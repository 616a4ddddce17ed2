/**
 * Data files the tokenizer and data lessons (4, 5, 6, 21) grade with: MiniMind's own
 * tokenizer.json (datasets/minimind-tokenizer/), the course tokenizer, and a character-level
 * stand-in tokenizer that the Python fixture scripts can reproduce exactly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOS_TOKEN, EOS_TOKEN, bpeModelFromJson, parseTokenizerJson, type BpeModel, type TextTokenizer, type Tokenizer } from "../../lib/tokenizer.js";
import { paths } from "./paths.js";

const DATASETS = paths.datasets;

/** datasets/minimind-tokenizer/tokenizer.json (MiniMind d65ef2c, Apache-2.0). */
export const MINIMIND_TOKENIZER = join(DATASETS, "minimind-tokenizer", "tokenizer.json");

let minimindText: string | undefined;
const minimindJson = () => (minimindText ??= readFileSync(MINIMIND_TOKENIZER, "utf8"));

/** MiniMind's tokenizer as lesson 4's model object (merges, vocab, special tokens). */
export function minimindModel(): BpeModel {
  return bpeModelFromJson(minimindJson());
}

/** MiniMind's tokenizer loaded by the course runtime (lib/tokenizer.ts). */
export function minimindTokenizer(): Tokenizer {
  return parseTokenizerJson(minimindJson(), MINIMIND_TOKENIZER);
}

/**
 * One id per code point (its number), with MiniMind's bos/eos strings and ids 1, 2 and
 * pad 0: the Python fixtures use `[ord(c) for c in text]`, so both sides agree.
 */
export function charTokenizer(): TextTokenizer {
  return {
    encode: (text) => Array.from(text, (c) => c.codePointAt(0)!),
    decode: (ids) => String.fromCodePoint(...ids.filter((id) => id > 2)),
    bosToken: BOS_TOKEN,
    eosToken: EOS_TOKEN,
    bosId: 1,
    eosId: 2,
    padId: 0,
  };
}

/** A uniform source that replays `values` in order (a fixture's draws), then throws. */
export function replay(values: readonly number[]): () => number {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error(`the case supplies ${values.length} random draws and all were used`);
    return values[i++];
  };
}
