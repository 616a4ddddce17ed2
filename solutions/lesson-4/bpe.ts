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
  // BEGIN SOLUTION
  const alphabet = [...BYTE_TO_CHAR].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
  if (vocabSize < specialTokens.length + alphabet.length) {
    throw new RangeError(`vocabSize ${vocabSize} is below the ${specialTokens.length} special tokens + 256 bytes`);
  }
  const tokens: string[] = [...specialTokens, ...alphabet];
  const vocab: Record<string, number> = {};
  tokens.forEach((t, id) => (vocab[t] = id));

  // 1. Count each distinct pre-token once, as a list of symbol ids.
  const counts = new Map<string, number>();
  for (const text of texts) for (const piece of pretokenize(text)) {
    const word = toByteLevel(piece);
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const words: number[][] = [];
  const freq: number[] = [];
  for (const [word, n] of counts) {
    words.push(Array.from(word, (c) => vocab[c]));
    freq.push(n);
  }

  // 2. Pair counts, and which words hold each pair. A pair (a, b) is the number a·2^21 + b.
  const SHIFT = 2097152;
  const pairCount = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const heap = new PairHeap();
  const addPairs = (w: number, sign: 1 | -1, touched: Set<number>) => {
    const s = words[w];
    for (let i = 0; i + 1 < s.length; i++) {
      const key = s[i] * SHIFT + s[i + 1];
      pairCount.set(key, (pairCount.get(key) ?? 0) + sign * freq[w]);
      if (sign > 0) {
        let set = pairWords.get(key);
        if (!set) pairWords.set(key, (set = new Set()));
        set.add(w);
      }
      touched.add(key);
    }
  };
  const initial = new Set<number>();
  words.forEach((_, w) => addPairs(w, 1, initial));
  for (const key of initial) heap.push(pairCount.get(key)!, key);

  // 3. Merge the best pair, update the counts of the words that held it, repeat.
  const merges: Array<[string, string]> = [];
  while (tokens.length < vocabSize) {
    const best = heap.popValid(pairCount);
    if (best === undefined) break;
    const [a, b] = [Math.floor(best / SHIFT), best % SHIFT];
    const merged = tokens[a] + tokens[b];
    let id = vocab[merged];
    if (id === undefined) {
      id = tokens.length;
      tokens.push(merged);
      vocab[merged] = id;
    }
    merges.push([tokens[a], tokens[b]]);
    const touched = new Set<number>();
    for (const w of pairWords.get(best) ?? []) {
      const s = words[w];
      if (!s.some((x, i) => x === a && s[i + 1] === b)) continue;
      addPairs(w, -1, touched);
      const next: number[] = [];
      for (let i = 0; i < s.length; i++) {
        if (i + 1 < s.length && s[i] === a && s[i + 1] === b) {
          next.push(id);
          i++;
        } else next.push(s[i]);
      }
      words[w] = next;
      addPairs(w, 1, touched);
    }
    pairWords.delete(best);
    for (const key of touched) {
      const n = pairCount.get(key)!;
      if (n > 0) heap.push(n, key);
      else pairCount.delete(key);
    }
  }
  return { merges, vocab, specialTokens: [...specialTokens] };
  // END SOLUTION
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
  // BEGIN SOLUTION
  const rank = new Map<string, number>();
  model.merges.forEach(([a, b], r) => {
    if (!rank.has(`${a} ${b}`)) rank.set(`${a} ${b}`, r);
  });
  const ids: number[] = [];
  const encodePlain = (part: string) => {
    for (const piece of pretokenize(part)) {
      let symbols = Array.from(toByteLevel(piece));
      for (;;) {
        let best = -1;
        let bestRank = Infinity;
        for (let i = 0; i + 1 < symbols.length; i++) {
          const r = rank.get(`${symbols[i]} ${symbols[i + 1]}`);
          if (r !== undefined && r < bestRank) [best, bestRank] = [i, r];
        }
        if (best < 0) break;
        const [a, b] = [symbols[best], symbols[best + 1]];
        const next: string[] = [];
        for (let i = 0; i < symbols.length; i++) {
          if (i + 1 < symbols.length && symbols[i] === a && symbols[i + 1] === b) {
            next.push(a + b);
            i++;
          } else next.push(symbols[i]);
        }
        symbols = next;
      }
      for (const s of symbols) ids.push(model.vocab[s]);
    }
  };
  // Special tokens first: split the text around them, longest first at each position.
  const specials = [...model.specialTokens].sort((x, y) => y.length - x.length);
  let start = 0;
  let plainFrom = 0;
  while (start < text.length) {
    const hit = specials.find((s) => s.length > 0 && text.startsWith(s, start));
    if (hit === undefined) {
      start++;
      continue;
    }
    encodePlain(text.slice(plainFrom, start));
    ids.push(model.vocab[hit]);
    start += hit.length;
    plainFrom = start;
  }
  encodePlain(text.slice(plainFrom));
  return ids;
  // END SOLUTION
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
  // BEGIN SOLUTION
  const tokenOf = new Map<number, string>();
  for (const [t, id] of Object.entries(model.vocab)) tokenOf.set(id, t);
  const bytes: number[] = [];
  for (const id of ids) {
    const token = tokenOf.get(id);
    if (token === undefined) continue;
    const mapped = Array.from(token, (c) => CHAR_TO_BYTE.get(c));
    if (mapped.every((b) => b !== undefined)) bytes.push(...(mapped as number[]));
    else bytes.push(...new TextEncoder().encode(token));
  }
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(new Uint8Array(bytes));
  // END SOLUTION
}

// BEGIN SOLUTION
/** A max-heap of (count, pair) with stale entries skipped on pop: the count must still be current. */
class PairHeap {
  private items: Array<[number, number]> = [];

  /** Higher count first; among equal counts the smaller pair key (left id, then right id). */
  private better(x: [number, number], y: [number, number]): boolean {
    return x[0] > y[0] || (x[0] === y[0] && x[1] < y[1]);
  }

  push(count: number, key: number): void {
    const a = this.items;
    a.push([count, key]);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.better(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  /** The best pair whose stored count is still its current count; undefined when none is left. */
  popValid(current: Map<number, number>): number | undefined {
    while (this.items.length) {
      const top = this.pop();
      if ((current.get(top[1]) ?? 0) === top[0] && top[0] > 0) return top[1];
    }
    return undefined;
  }

  private pop(): [number, number] {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.better(a[l], a[m])) m = l;
        if (r < a.length && this.better(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
// END SOLUTION
