/**
 * Wrong versions of lesson 4's functions, each with one plausible flaw. Most reuse the reference
 * around the flaw, so a mutant differs from it in exactly the way its name says.
 */
import { BYTE_TO_CHAR, CHAR_TO_BYTE, pretokenize, toByteLevel, type BpeModel } from "../../lib/tokenizer.js";
import { bpeDecode, bpeEncode } from "../../solutions/lesson-4/bpe.js";
import { pythonJson, renderChat, type ChatMessage, type ChatOptions } from "../../solutions/lesson-4/chat-template.js";

/** "no-size-check" is the plain trainer itself: like every variant here it never refuses a vocabSize below S + 256. */
export type TrainFlaw = "largest-pair-tie" | "no-pretokenize" | "seen-bytes-only" | "specials-last" | "specials-not-counted" | "no-size-check";

/** A plain BPE trainer (counts recomputed each step) with one flaw switched on. */
export function trainVariant(flaw: TrainFlaw) {
  return (texts: string[], vocabSize: number, specialTokens: string[]): BpeModel => {
    let alphabet = [...BYTE_TO_CHAR].sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0));
    const words: string[][] = [];
    for (const t of texts) for (const p of flaw === "no-pretokenize" ? [t] : pretokenize(t)) words.push(Array.from(toByteLevel(p)));
    if (flaw === "seen-bytes-only") alphabet = alphabet.filter((c) => words.some((w) => w.includes(c)));
    const tokens = flaw === "specials-last" ? [...alphabet] : [...specialTokens, ...alphabet];
    const target = flaw === "specials-not-counted" ? vocabSize + specialTokens.length : flaw === "specials-last" ? vocabSize - specialTokens.length : vocabSize;
    const merges: Array<[string, string]> = [];
    while (tokens.length < target) {
      const counts = new Map<string, number>();
      for (const w of words) for (let i = 0; i + 1 < w.length; i++) counts.set(w[i] + "\u0000" + w[i + 1], (counts.get(w[i] + "\u0000" + w[i + 1]) ?? 0) + 1);
      let best: [string, string] | undefined;
      let bestN = 0;
      const id = (t: string) => tokens.indexOf(t);
      for (const [k, n] of counts) {
        const [a, b] = k.split("\u0000") as [string, string];
        const smaller = best && (id(a) < id(best[0]) || (id(a) === id(best[0]) && id(b) < id(best[1])));
        const larger = best && (id(a) > id(best[0]) || (id(a) === id(best[0]) && id(b) > id(best[1])));
        if (n > bestN || (n === bestN && (flaw === "largest-pair-tie" ? larger : smaller))) [best, bestN] = [[a, b], n];
      }
      if (!best) break;
      merges.push(best);
      if (!tokens.includes(best[0] + best[1])) tokens.push(best[0] + best[1]);
      for (const w of words) for (let i = 0; i + 1 < w.length; i++) if (w[i] === best[0] && w[i + 1] === best[1]) w.splice(i, 2, best[0] + best[1]);
    }
    if (flaw === "specials-last") tokens.push(...specialTokens);
    const vocab: Record<string, number> = {};
    tokens.forEach((t, i) => (vocab[t] = i));
    return { merges, vocab, specialTokens: [...specialTokens] };
  };
}

export type EncodeFlaw = "no-specials" | "no-pretokenize" | "leftmost-mergeable" | "shortest-special" | "longest-match";

/** bpeEncode with one flaw. */
export function encodeVariant(flaw: EncodeFlaw) {
  return (model: BpeModel, text: string): number[] => {
    if (flaw === "no-specials") return bpeEncode({ ...model, specialTokens: [] }, text);
    const specials = [...model.specialTokens].sort((x, y) => (flaw === "shortest-special" ? x.length - y.length : y.length - x.length));
    const rank = new Map(model.merges.map(([a, b], r) => [`${a} ${b}`, r] as const));
    const merge = (symbols: string[]): string[] => {
      if (flaw === "longest-match") {
        const word = symbols.join("");
        const out: string[] = [];
        for (let i = 0; i < word.length; ) {
          let j = word.length;
          while (j > i + 1 && model.vocab[word.slice(i, j)] === undefined) j--;
          out.push(word.slice(i, j));
          i = j;
        }
        return out;
      }
      for (;;) {
        let best = -1;
        let bestRank = Infinity;
        for (let i = 0; i + 1 < symbols.length; i++) {
          const r = rank.get(`${symbols[i]} ${symbols[i + 1]}`);
          if (r === undefined) continue;
          if (flaw === "leftmost-mergeable") { best = i; break; }
          if (r < bestRank) [best, bestRank] = [i, r];
        }
        if (best < 0) return symbols;
        symbols = [...symbols.slice(0, best), symbols[best] + symbols[best + 1], ...symbols.slice(best + 2)];
      }
    };
    const ids: number[] = [];
    const plain = (part: string) => {
      const pieces = flaw === "no-pretokenize" ? (part ? [part] : []) : pretokenize(part);
      for (const p of pieces) for (const s of merge(Array.from(toByteLevel(p)))) ids.push(model.vocab[s]);
    };
    let from = 0;
    for (let i = 0; i < text.length; ) {
      const hit = specials.find((s) => text.startsWith(s, i));
      if (!hit) { i++; continue; }
      plain(text.slice(from, i));
      ids.push(model.vocab[hit]);
      i += hit.length;
      from = i;
    }
    plain(text.slice(from));
    return ids;
  };
}

export type DecodeFlaw = "per-token" | "no-byte-table" | "latin1" | "drops-broken" | "default-decoder" | "spread-bytes";

/** bpeDecode with one flaw. */
export function decodeVariant(flaw: DecodeFlaw) {
  return (model: BpeModel, ids: number[]): string => {
    if (flaw === "drops-broken") return bpeDecode(model, ids).replace(/\uFFFD/g, "");
    const tokenOf = new Map(Object.entries(model.vocab).map(([t, id]) => [id, t] as const));
    const tokens = ids.map((id) => tokenOf.get(id)).filter((t): t is string => t !== undefined);
    if (flaw === "per-token") {
      // Each token's bytes decoded on their own (one vocabulary map for the whole call).
      const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
      return tokens.map((t) => decoder.decode(new Uint8Array(Array.from(t, (c) => CHAR_TO_BYTE.get(c)).every((b) => b !== undefined) ? Array.from(t, (c) => CHAR_TO_BYTE.get(c)!) : new TextEncoder().encode(t)))).join("");
    }
    if (flaw === "no-byte-table") return tokens.join("");
    if (flaw === "default-decoder" || flaw === "spread-bytes") {
      const bytes: number[] = [];
      for (const t of tokens) {
        const mapped = Array.from(t, (c) => CHAR_TO_BYTE.get(c));
        if (mapped.every((b) => b !== undefined)) bytes.push(...(mapped as number[]));
        else bytes.push(...new TextEncoder().encode(t));
      }
      // new TextDecoder() strips a leading byte-order mark; Uint8Array.of(...bytes) spreads every byte as an argument.
      if (flaw === "default-decoder") return new TextDecoder().decode(new Uint8Array(bytes));
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(Uint8Array.of(...bytes));
    }
    const bytes = tokens.flatMap((t) => Array.from(t, (c) => CHAR_TO_BYTE.get(c) ?? c.charCodeAt(0) & 0xff));
    return String.fromCharCode(...bytes);
  };
}

export type ChatFlaw = "no-empty-think" | "tool-turn-each" | "string-args-quoted" | "compact-tools-json" | "open-thinking-ignored";

/** renderChat with one flaw, built around the reference's output. */
export function chatVariant(flaw: ChatFlaw) {
  return (messages: ChatMessage[], options: ChatOptions = {}): string => {
    if (flaw === "open-thinking-ignored") return renderChat(messages, { ...options, openThinking: false });
    if (flaw === "string-args-quoted") {
      const quoted = messages.map((m) => ({
        ...m,
        tool_calls: m.tool_calls?.map((c) => {
          const fn = c.function ?? c;
          return { name: fn.name, arguments: typeof fn.arguments === "string" ? JSON.stringify(fn.arguments) : fn.arguments };
        }),
      }));
      return renderChat(quoted, options);
    }
    let out = renderChat(messages, options);
    if (flaw === "no-empty-think") out = out.replace(/<\|im_start\|>assistant\n<think>\n\n<\/think>\n\n(?!$)/g, "<|im_start|>assistant\n");
    if (flaw === "tool-turn-each") out = out.replace(/<\/tool_response>\n<tool_response>/g, "</tool_response><|im_end|>\n<|im_start|>user\n<tool_response>");
    if (flaw === "compact-tools-json") for (const t of options.tools ?? []) out = out.replace(pythonJson(t), JSON.stringify(t));
    return out;
  };
}
