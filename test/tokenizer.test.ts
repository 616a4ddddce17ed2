/**
 * The runtime tokenizer (lib/tokenizer.ts) against Hugging Face's tokenizers (its JavaScript
 * edition, @huggingface/tokenizers): MiniMind's tokenizer.json loads unchanged and encodes the
 * round-trip set exactly as the library does; the course tokenizer, saved by saveTokenizer, loads
 * in the library and encodes identically; it is reproducible from its model; the jsonl loader
 * reports malformed lines with file:line and goes on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tokenizer as HfTokenizer } from "@huggingface/tokenizers";
import { describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import { newReport, readJsonl, isTextRecord } from "../lib/data/jsonl.js";
import { bpeModelFromJson, loadTokenizer, parseTokenizerJson, tokenizerJson, TokenizerFormatError } from "../lib/tokenizer.js";

const MM_DIR = join(ROOT, "datasets", "minimind-tokenizer");
const COURSE = join(ROOT, "datasets", "tokenizer", "tokenizer.json");
const read = (p: string) => JSON.parse(readFileSync(p, "utf8"));

/** Hard text: scripts, emoji sequences, combining marks, whitespace runs, and 5,000 mixed characters. */
function roundTripSet(): string[] {
  const pieces = ["你好，世界！", "日本語のテキスト", "한국어 문장", "👨‍👩‍👧‍👦", "👍🏽👋🏿", "🏳️‍🌈", "e\u0301", "Z̴̡͔a̸̟", "\t\t", "   ", "\n\n", " it's", "'LL", "123456", "½", "\u00a0", "\u3000", "<|im_start|>", "<think>", "<|im_start", "ok", " the", "Ελληνικά", "עברית", "مرحبا", "ไทย"];
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  let long = "";
  while (long.length < 5000) long += pieces[Math.floor(next() * pieces.length)];
  return [
    "Hello world",
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\n你好<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    "👨‍👩‍👧‍👦 👍🏽 🧑🏿‍🚀 ❤️‍🔥 🇫🇷 #️⃣",
    "e\u0301te\u0301 n\u0303 Ṩ̣̇ 각",
    "tab\there\t\tand    spaces   \n  \n\n   end  ",
    "I'm sure it's 2024; we'll see. 'S 'T",
    long,
  ];
}

describe("MiniMind's tokenizer.json", () => {
  const hf = new HfTokenizer(read(join(MM_DIR, "tokenizer.json")), read(join(MM_DIR, "tokenizer_config.json")));
  const ours = loadTokenizer(join(MM_DIR, "tokenizer.json"));

  it("loads unchanged: 6,400 ids, 36 added tokens, MiniMind's bos/eos/pad ids", () => {
    expect([ours.vocabSize, ours.addedTokens.length, ours.bosId, ours.eosId, ours.padId]).toEqual([6400, 36, 1, 2, 0]);
  });

  it.each(roundTripSet().map((t, i) => [i, t] as const))("text %i encodes as Hugging Face's tokenizers does, and decodes back", (_, text) => {
    const ids = ours.encode(text);
    expect(ids).toEqual(hf.encode(text, { add_special_tokens: false }).ids);
    expect(ours.decode(ids)).toBe(text);
    expect(ours.decode(ids)).toBe(hf.decode(ids, { skip_special_tokens: false }));
  });

  it("special-token strings are single ids and nothing is added around a text", () => {
    expect(ours.encode("<|im_start|>")).toEqual([1]);
    expect(ours.encode("<tool_call>")).toEqual([21]);
    expect(ours.encode("")).toEqual([]);
  });

  it("skipSpecialTokens drops special tokens but keeps the non-special added ones (<think>)", () => {
    expect(ours.decode(ours.encode("<|im_start|>a<think>b<|im_end|>"), { skipSpecialTokens: true })).toBe("a<think>b");
  });
});

describe("the course tokenizer (datasets/tokenizer/tokenizer.json)", () => {
  const text = "One morning Ada walked to the market with 12 apples. 小明去了学校。<|im_start|>user\nWhat is 17 + 25?<|im_end|>\n";

  it("loads in Hugging Face's tokenizers and encodes a test text identically", () => {
    const hf = new HfTokenizer(read(COURSE), {});
    const ours = loadTokenizer(COURSE);
    expect(ours.encode(text)).toEqual(hf.encode(text, { add_special_tokens: false }).ids);
    expect(ours.decode(ours.encode(text))).toBe(text);
  });

  it("keeps MiniMind's special tokens at MiniMind's ids", () => {
    const mm = loadTokenizer(join(MM_DIR, "tokenizer.json"));
    const ours = loadTokenizer(COURSE);
    expect(ours.addedTokens.map((a) => [a.id, a.content, a.special])).toEqual(mm.addedTokens.map((a) => [a.id, a.content, a.special]));
  });

  it("saveTokenizer writes the committed file byte for byte from its model", () => {
    const file = readFileSync(COURSE, "utf8");
    const ours = loadTokenizer(COURSE);
    const special = new Set(ours.addedTokens.filter((a) => a.special).map((a) => a.content));
    expect(tokenizerJson(bpeModelFromJson(file), (t) => special.has(t))).toBe(file);
  });
});

describe("loading errors", () => {
  it("a tokenizer.json of another kind is refused with the field named", () => {
    expect(() => parseTokenizerJson(JSON.stringify({ model: { type: "WordPiece" } }))).toThrow(TokenizerFormatError);
    expect(() => parseTokenizerJson("{not json")).toThrow(/not valid JSON/);
  });

  it("a missing file says which path", () => {
    expect(() => loadTokenizer("/nonexistent/tokenizer.json")).toThrow(/cannot read \/nonexistent\/tokenizer.json: ENOENT/);
  });
});

describe("readJsonl", () => {
  it("reports a malformed line with file:line, skips it and goes on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "jsonl-"));
    const path = join(dir, "x.jsonl");
    writeFileSync(path, '{"text":"a"}\n{"text":\n\n{"nope":1}\n{"text":"b"}\n');
    const report = newReport();
    const seen: string[] = [];
    const texts: string[] = [];
    for await (const r of readJsonl<{ text: string }>(path, report, { check: isTextRecord, onProblem: (m) => seen.push(m) })) texts.push(r.text);
    rmSync(dir, { recursive: true, force: true });
    expect(texts).toEqual(["a", "b"]);
    expect(report).toMatchObject({ read: 2, skipped: 2 });
    expect(seen[0]).toMatch(/x\.jsonl:2: skipped/);
    expect(seen[1]).toMatch(/x\.jsonl:4: skipped \(not an object with a string "text"\)/);
  });
});
