/**
 * The course's runtime tokenizer: byte-level BPE read from (and written to) a Hugging Face
 * `tokenizer.json`, the format of MiniMind's model/tokenizer.json. Labs, training and serving load
 * one with `loadTokenizer`; lesson 4 is where a learner writes the same algorithm.
 *
 * Behaviour follows the Hugging Face `tokenizers` library for the configuration MiniMind uses (no
 * normaliser, ByteLevel pre-tokenizer with the GPT-2 regex and no prefix space, BPE without
 * dropout, no post-processor, ByteLevel decoder):
 * - every added token's exact string inside a text becomes its single id (leftmost, longest first),
 *   special or not; nothing is added around a text;
 * - the rest is split by the GPT-2 regex (`\s` as Unicode White_Space, as Oniguruma reads it),
 *   each piece's UTF-8 bytes become printable characters, and merges apply lowest rank first;
 * - decoding joins tokens, maps characters back to bytes and decodes UTF-8 with U+FFFD for broken
 *   sequences.
 *
 * `createTokenizer`'s encode and decode are lesson 4's `bpeEncode` and `bpeDecode`, written fast
 * (`bpeEncoder`, `bpeDecoder`): while lesson 4 is graded an exercise may not import this module (the
 * byte-level helpers the exercise is given are in lib/byte-level.ts, re-exported here), and a
 * student edition without lesson 4's solution withholds both regions: its tokenizer runs the
 * learner's own functions (lib/preloaded.ts) or says "finish lesson 4 first".
 *
 * @answers lesson-4 bpeEncode bpeDecode
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CHAR_TO_BYTE, pretokenize, toByteLevel, type BpeModel } from "./byte-level.js";
import { preloadedFunction } from "./preloaded.js";

export { BYTE_TO_CHAR, CHAR_TO_BYTE, PRETOKENIZE_PATTERN, pretokenize, toByteLevel, type BpeModel } from "./byte-level.js";

/** One entry of tokenizer.json's `added_tokens`. */
export interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}

/** MiniMind's special-token roles (model/tokenizer_config.json): bos, eos and pad strings. */
export const BOS_TOKEN = "<|im_start|>";
export const EOS_TOKEN = "<|im_end|>";
export const PAD_TOKEN = "<|endoftext|>";

/** What labs, data loaders and lessons 5, 6 and 21 need from a tokenizer. */
export interface TextTokenizer {
  /** Ids of `text`, added tokens matched whole; nothing added around it. */
  encode(text: string): number[];
  /** Text of `ids`; with `skipSpecialTokens`, added tokens marked special are dropped. */
  decode(ids: readonly number[], opts?: { skipSpecialTokens?: boolean }): string;
  bosToken: string;
  eosToken: string;
  bosId: number;
  eosId: number;
  padId: number;
}

/** A loaded byte-level BPE tokenizer. */
export interface Tokenizer extends TextTokenizer {
  vocabSize: number;
  addedTokens: readonly AddedToken[];
  tokenToId(token: string): number | undefined;
  idToToken(id: number): string | undefined;
  /** The byte-level tokens of `text` (added tokens as themselves). */
  tokenize(text: string): string[];
}

/** Thrown for a tokenizer.json this runtime does not implement; the message says which field. */
export class TokenizerFormatError extends Error {}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Builds a tokenizer from a vocabulary, ranked merges and added tokens. */
export function createTokenizer(vocab: Record<string, number>, merges: ReadonlyArray<readonly [string, string]>, added: readonly AddedToken[]): Tokenizer {
  const idOf = new Map<string, number>(Object.entries(vocab));
  for (const a of added) idOf.set(a.content, a.id);
  const tokenOf: string[] = [];
  for (const [t, id] of idOf) tokenOf[id] = t;
  merges.forEach(([a, b], rank) => {
    if (!idOf.has(a) || !idOf.has(b) || !idOf.has(a + b)) throw new TokenizerFormatError(`merge ${rank} ("${a}" "${b}") names a token missing from the vocabulary`);
  });
  const specialIds = new Set(added.filter((a) => a.special).map((a) => a.id));
  const encode = bpeEncoder(idOf, merges, added);
  const decodeKept = bpeDecoder(idOf, tokenOf, merges, added);
  const roleId = (token: string) => idOf.get(token) ?? -1;
  return {
    vocabSize: tokenOf.length,
    addedTokens: [...added],
    bosToken: BOS_TOKEN,
    eosToken: EOS_TOKEN,
    bosId: roleId(BOS_TOKEN),
    eosId: roleId(EOS_TOKEN),
    padId: roleId(PAD_TOKEN),
    encode,
    tokenize: (text) => encode(text).map((id) => tokenOf[id]),
    decode: (ids, opts = {}) => decodeKept(opts.skipSpecialTokens ? ids.filter((id) => !specialIds.has(id)) : ids),
    tokenToId: (t) => idOf.get(t),
    idToToken: (id) => tokenOf[id],
  };
}

type BpeEncode = (model: BpeModel, text: string) => number[];
type BpeDecode = (model: BpeModel, ids: number[]) => string;

/** The tokenizer as lesson 4's model object (`idOf` holds the vocabulary and the added tokens). */
function asBpeModel(idOf: ReadonlyMap<string, number>, merges: ReadonlyArray<readonly [string, string]>, added: readonly AddedToken[]): BpeModel {
  return { vocab: Object.fromEntries(idOf), merges: merges.map(([a, b]) => [a, b]), specialTokens: [...added].sort((x, y) => x.id - y.id).map((a) => a.content) };
}

/**
 * Lesson 4's `bpeEncode` for one tokenizer, fast: merges ranked once as (left id, right id) pairs,
 * added tokens split out by one regular expression (longest first), and each byte-level word's
 * merges cached. Where lesson 4 is withheld, the learner's `bpeEncode` (lib/preloaded.ts).
 */
function bpeEncoder(idOf: ReadonlyMap<string, number>, merges: ReadonlyArray<readonly [string, string]>, added: readonly AddedToken[]): (text: string) => number[] {
  // BEGIN ANSWER lesson-4
  // (left id, right id) → [rank, merged id]; ids stay below 2^21 for any vocabulary we load.
  const mergeOf = new Map<number, [number, number]>();
  merges.forEach(([a, b], rank) => {
    const key = idOf.get(a)! * 2097152 + idOf.get(b)!;
    if (!mergeOf.has(key)) mergeOf.set(key, [rank, idOf.get(a + b)!]);
  });
  const addedIds = new Map(added.map((a) => [a.content, a.id]));
  const splitter = added.length
    ? new RegExp(`(${[...added].sort((x, y) => y.content.length - x.content.length).map((a) => escapeRegExp(a.content)).join("|")})`, "u")
    : undefined;
  const cache = new Map<string, number[]>();

  /** Merges inside one byte-level word, lowest rank first, leftmost first among equals. */
  function bpe(word: string): number[] {
    const hit = cache.get(word);
    if (hit) return hit;
    let ids: number[] = [];
    for (const c of word) {
      const id = idOf.get(c);
      if (id !== undefined) ids.push(id); // no unk token: an unknown character is dropped, as tokenizers does
    }
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < ids.length; i++) {
        const m = mergeOf.get(ids[i] * 2097152 + ids[i + 1]);
        if (m && m[0] < bestRank) {
          bestRank = m[0];
          best = i;
        }
      }
      if (best < 0) break;
      const [left, right] = [ids[best], ids[best + 1]];
      const merged = mergeOf.get(left * 2097152 + right)![1];
      const next: number[] = [];
      for (let i = 0; i < ids.length; i++) {
        if (i + 1 < ids.length && ids[i] === left && ids[i + 1] === right) {
          next.push(merged);
          i++;
        } else next.push(ids[i]);
      }
      ids = next;
    }
    if (cache.size < 200_000) cache.set(word, ids);
    return ids;
  }

  return (text) => {
    const out: number[] = [];
    const parts = splitter ? text.split(splitter) : [text];
    parts.forEach((part, i) => {
      if (part === "") return;
      if (i % 2 === 1) out.push(addedIds.get(part)!);
      else for (const piece of pretokenize(part)) for (const id of bpe(toByteLevel(piece))) out.push(id);
    });
    return out;
  };
  // EDITION: const model = asBpeModel(idOf, merges, added);
  // EDITION: return (text) => preloadedFunction<BpeEncode>("lesson-4", "bpeEncode")(model, text);
  // END ANSWER
}

/**
 * Lesson 4's `bpeDecode` for one tokenizer: tokens joined, characters mapped back to bytes (a token
 * with a character outside the byte table, such as "<|im_start|>", contributes its own UTF-8),
 * UTF-8 decoded with U+FFFD for broken sequences; unknown ids skipped. Where lesson 4 is withheld,
 * the learner's `bpeDecode` (lib/preloaded.ts).
 */
function bpeDecoder(idOf: ReadonlyMap<string, number>, tokenOf: readonly string[], merges: ReadonlyArray<readonly [string, string]>, added: readonly AddedToken[]): (ids: readonly number[]) => string {
  // BEGIN ANSWER lesson-4
  const utf8 = new TextEncoder();
  return (ids) => {
    const bytes: number[] = [];
    for (const id of ids) {
      const token = tokenOf[id];
      if (token === undefined) continue;
      const mapped: number[] = [];
      for (const c of token) {
        const b = CHAR_TO_BYTE.get(c);
        if (b === undefined) {
          mapped.length = 0;
          mapped.push(...utf8.encode(token));
          break;
        }
        mapped.push(b);
      }
      for (const b of mapped) bytes.push(b);
    }
    return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(new Uint8Array(bytes));
  };
  // EDITION: const model = asBpeModel(idOf, merges, added);
  // EDITION: return (ids) => preloadedFunction<BpeDecode>("lesson-4", "bpeDecode")(model, [...ids]);
  // END ANSWER
}

interface TokenizerJson {
  added_tokens?: Array<{ id: number; content: string; special?: boolean; lstrip?: boolean; rstrip?: boolean; normalized?: boolean; single_word?: boolean }>;
  normalizer?: unknown;
  pre_tokenizer?: { type?: string; add_prefix_space?: boolean; use_regex?: boolean } | null;
  post_processor?: unknown;
  decoder?: { type?: string } | null;
  model?: { type?: string; vocab?: Record<string, number>; merges?: Array<string | [string, string]>; dropout?: number | null; byte_fallback?: boolean };
}

/** Parses tokenizer.json text; refuses (with the field named) what this runtime does not implement. */
export function parseTokenizerJson(text: string, where = "tokenizer.json"): Tokenizer {
  let json: TokenizerJson;
  try {
    json = JSON.parse(text) as TokenizerJson;
  } catch (err) {
    throw new TokenizerFormatError(`${where} is not valid JSON: ${(err as Error).message}`);
  }
  const m = json.model;
  const refuse = (why: string) => {
    throw new TokenizerFormatError(`${where}: ${why}; this course reads byte-level BPE tokenizers like MiniMind's`);
  };
  if (!m || m.type !== "BPE" || !m.vocab || !m.merges) refuse(`model.type is ${m?.type ?? "missing"}, not BPE with vocab and merges`);
  if (m!.dropout) refuse("BPE dropout is set");
  if (json.normalizer) refuse("a normalizer is set");
  if (json.post_processor) refuse("a post_processor is set");
  const pre = json.pre_tokenizer;
  if (!pre || pre.type !== "ByteLevel" || pre.add_prefix_space || pre.use_regex === false) refuse("pre_tokenizer is not ByteLevel with the GPT-2 regex and no prefix space");
  if (!json.decoder || json.decoder.type !== "ByteLevel") refuse("decoder is not ByteLevel");
  const merges = m!.merges!.map((x) => (typeof x === "string" ? (x.split(" ") as [string, string]) : x));
  for (const a of json.added_tokens ?? []) if (a.lstrip || a.rstrip || a.single_word || a.normalized) refuse(`added token ${a.content} uses lstrip/rstrip/single_word/normalized`);
  const added = (json.added_tokens ?? []).map((a) => ({ id: a.id, content: a.content, special: a.special ?? false }));
  return createTokenizer(m!.vocab!, merges, added);
}

/** Reads a Hugging Face tokenizer.json (MiniMind's loads unchanged). */
export function loadTokenizer(path: string): Tokenizer {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new TokenizerFormatError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseTokenizerJson(text, path);
}

/**
 * A BPE model as tokenizer.json text, laid out as MiniMind's file is (vocab in id order, merges
 * as pairs, two-space indent), so the same model always gives the same bytes. `special` says which
 * added tokens are special (skipped by `decode(…, { skipSpecialTokens })`); default all.
 */
export function tokenizerJson(model: BpeModel, special: (token: string) => boolean = () => true): string {
  const vocab = Object.entries(model.vocab).sort((a, b) => a[1] - b[1]);
  const json = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: model.specialTokens.map((content) => ({
      id: model.vocab[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: special(content),
    })),
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: "BPE",
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: Object.fromEntries(vocab),
      merges: model.merges,
    },
  };
  return JSON.stringify(json, null, 2) + "\n";
}

/** Writes `model` as a Hugging Face tokenizer.json at `path` (folders created). */
export function saveTokenizer(model: BpeModel, path: string, special?: (token: string) => boolean): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, tokenizerJson(model, special));
}

/** A BpeModel from a loaded tokenizer.json's text (the inverse of `tokenizerJson`). */
export function bpeModelFromJson(text: string): BpeModel {
  const json = JSON.parse(text) as TokenizerJson;
  return {
    merges: (json.model?.merges ?? []).map((x) => (typeof x === "string" ? (x.split(" ") as [string, string]) : x)),
    vocab: { ...(json.model?.vocab ?? {}) },
    specialTokens: (json.added_tokens ?? []).sort((a, b) => a.id - b.id).map((a) => a.content),
  };
}

/** datasets/tokenizer/tokenizer.json: the course tokenizer `npm run train-tokenizer` writes. */
export const COURSE_TOKENIZER_PATH = join(dirname(fileURLToPath(import.meta.url)), "..", "datasets", "tokenizer", "tokenizer.json");

let courseCache: Tokenizer | undefined;

/** The course tokenizer (byte-level BPE, 2,048 ids, MiniMind's special tokens at ids 0-35), loaded once. */
export function courseTokenizer(): Tokenizer {
  return (courseCache ??= loadTokenizer(COURSE_TOKENIZER_PATH));
}
