/**
 * Lesson 4 — The tokenizer. Cases for exercises/lesson-4/bpe.ts (bpeTrain, bpeEncode, bpeDecode)
 * and exercises/lesson-4/chat-template.ts (renderChat): the lesson's worked example, edge cases
 * (among them a vocabulary too small, a leading U+FEFF, a 500,000-byte decode),
 * MiniMind's own tokenizer.json on hard text, seeded random text, and jinja2 renderings of
 * MiniMind's chat template (grader/lesson-4/parity.py).
 */
import { readFileSync } from "node:fs";
import { fixtureCases } from "../engine/fixtures.js";
import { fixtureFile } from "../engine/paths.js";
import { minimindModel } from "../engine/datasets.js";
import { Rng } from "../../lib/random.js";
import { throwsCall } from "../engine/throws.js";
import { EXACT } from "../engine/types.js";
import type { BpeModel } from "../../lib/tokenizer.js";
import type { CaseDef, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-4";

/** The lesson's worked example: two texts, two special tokens, 2 + 256 + 5 merges = 263 entries. */
const WORKED_TEXTS = ["hug hugs pug", "pun bun hugs"];
const WORKED_SPECIALS = ["<|endoftext|>", "<|im_start|>"];

/** A small hand-made model over the byte alphabet: merges "u g", "h ug", "Ġ hug", "p ug". */
function tinyModel(): BpeModel {
  const vocab: Record<string, number> = { "<s>": 0, "<s><s>": 1 };
  // Byte characters in code-point order after the specials, as bpeTrain numbers them.
  const chars = [...BYTE_ALPHABET];
  chars.forEach((c, i) => (vocab[c] = 2 + i));
  const merges: Array<[string, string]> = [["u", "g"], ["h", "ug"], ["Ġ", "hug"], ["p", "ug"], ["Ġ", "p"]];
  let id = 2 + chars.length;
  for (const [a, b] of merges) if (vocab[a + b] === undefined) vocab[a + b] = id++;
  return { merges, vocab, specialTokens: ["<s>", "<s><s>"] };
}

/** GPT-2's byte characters: BYTE_CHARS[b] stands for byte b. */
const BYTE_CHARS: string[] = (() => {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out: string[] = [];
  let n = 0;
  for (let b = 0; b < 256; b++) out.push(String.fromCharCode(printable(b) ? b : 256 + n++));
  return out;
})();

/** GPT-2's byte characters sorted by code point (bpeTrain's order). */
const BYTE_ALPHABET: string[] = [...BYTE_CHARS].sort((x, y) => x.charCodeAt(0) - y.charCodeAt(0));

/** The tiny model's ids of a text's UTF-8 bytes, one byte token each (no merges). */
function tinyByteIds(model: BpeModel, text: string): number[] {
  return Array.from(new TextEncoder().encode(text), (b) => model.vocab[BYTE_CHARS[b]]);
}

/**
 * A long text graded by its length and its first and last 1,000 characters: the point of the case
 * is the size of the input, and a small result keeps the report (and a release's frozen
 * expectations) small.
 */
function ends(text: unknown): unknown {
  if (typeof text !== "string") return text;
  return { length: text.length, start: text.slice(0, 1000), end: text.slice(-1000) };
}

/** Seeded text mixing scripts, emoji sequences, combining marks and whitespace runs. */
function mixedText(seed: number, n: number): string {
  const rng = new Rng(seed);
  const pieces = [
    "the ", "The ", "model", " learns", "'s", " it'll", "  ", "\t", "\n", "\n\n", "   ", "123", " 4567", "3.14", "!?", "...", "—",
    "你好", "世界", "，", "。", "学习", "模型", "日本語", "한국어", "Ελληνικά", "кириллица", "عربى",
    "e\u0301", "n\u0303", "a\u0308\u0304", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🙂", "∑", "½", "٣", "\u00a0", "\u3000",
  ];
  let s = "";
  while (s.length < n) s += pieces[rng.int(0, pieces.length - 1)];
  return s;
}

/** Expectations from Hugging Face's tokenizers on MiniMind's file (grader/lesson-4/parity-tokenizers.ts). */
function tokenizersFixtures(exercise: "bpeEncode" | "bpeDecode"): CaseDef[] {
  const doc = JSON.parse(readFileSync(fixtureFile("lesson-4", "tokenizers"), "utf8")) as Record<string, Array<{ name: string; text?: string; ids?: number[]; expected: unknown }>>;
  return doc[exercise].map((c) => ({
    name: `Hugging Face tokenizers on MiniMind's tokenizer.json: ${c.name}`,
    kind: "fixture" as const,
    inputs: () => (exercise === "bpeEncode" ? { model: minimindModel(), text: c.text } : { model: minimindModel(), ids: [...c.ids!] }),
    expected: () => c.expected,
  }));
}

/** A seeded conversation using every role and message shape the template knows. */
function randomConversation(seed: number): { messages: Array<Record<string, unknown>>; options: Record<string, unknown> } {
  const rng = new Rng(seed);
  const pick = <T>(xs: T[]): T => xs[rng.int(0, xs.length - 1)];
  const words = ["sum", "42", "你好", "\n", "<think>", "</think>", "x y", "🙂", "\t", "ok"];
  const say = () => Array.from({ length: rng.int(0, 4) }, () => pick(words)).join(pick(["", " ", "\n"]));
  const messages: Array<Record<string, unknown>> = [];
  if (rng.next() < 0.5) messages.push({ role: "system", content: say() });
  for (let turn = 0; turn < 12; turn++) {
    const role = pick(["user", "assistant", "assistant", "tool", "system"]);
    const m: Record<string, unknown> = { role, content: rng.next() < 0.1 ? null : say() };
    if (role === "assistant" && rng.next() < 0.4) m.reasoning_content = say();
    if (role === "assistant" && rng.next() < 0.4) {
      m.tool_calls = Array.from({ length: rng.int(1, 2) }, () =>
        rng.next() < 0.5 ? { function: { name: "calc", arguments: { expr: say(), n: rng.int(0, 9) } } } : { name: "echo", arguments: JSON.stringify({ s: say() }) },
      );
    }
    messages.push(m);
  }
  const tools = rng.next() < 0.5 ? [{ type: "function", function: { name: "calc", parameters: { expr: "string", n: 3 } } }] : undefined;
  return { messages, options: { tools, addGenerationPrompt: rng.next() < 0.5, openThinking: rng.next() < 0.5 } };
}

const mm = (name: string, text: () => string, kind: CaseDef["kind"] = "edge"): CaseDef => ({
  name: `MiniMind's tokenizer.json: ${name}`,
  kind,
  inputs: () => ({ model: minimindModel(), text: text() }),
});

const ENCODE_TEXTS: Array<[string, string]> = [
  ["English prose", "Large language models are trained to predict the next token. They're small here."],
  ["Chinese", "人工智能是计算机科学的一个分支，它研究智能的实质。"],
  ["a chat turn: special tokens inside text are one id each", "<|im_start|>user\n你好<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHi!<|im_end|>\n"],
  ["emoji with ZWJ and skin tones, combining marks", "👨‍👩‍👧‍👦 family, 👍🏽 ok, e\u0301te\u0301, n\u0303, 🏳️‍🌈"],
  ["tabs and runs of spaces", "a\t\tb    c \n   d\n\n\n    e  "],
  ["tool call markup", "<tool_call>\n{\"name\": \"calculate\", \"arguments\": {\"expression\": \"17*23\"}}\n</tool_call>"],
  ["contractions and digits", "I'll say it's 2024, we've 12345 items; you'd 'LL see"],
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "bpeTrain",
      file: "bpe.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.texts, x.vocabSize, x.specialTokens),
      cases: [
        { name: "worked example: 2 texts, 2 special tokens, vocabulary of 263 (5 merges)", kind: "worked", inputs: () => ({ texts: [...WORKED_TEXTS], vocabSize: 263, specialTokens: [...WORKED_SPECIALS] }) },
        { name: "vocabSize = specials + 256: no merge", kind: "edge", inputs: () => ({ texts: ["aaaa bbbb"], vocabSize: 257, specialTokens: ["<pad>"] }) },
        {
          name: "vocabSize below specials + 256 is an error",
          kind: "edge",
          inputs: () => ({ texts: ["aaaa bbbb"], vocabSize: 257, specialTokens: ["<pad>", "<s>"] }),
          call: throwsCall((fn, x) => fn(x.texts, x.vocabSize, x.specialTokens)),
          checks: "that a vocabulary too small for the special tokens and the 256 bytes is refused (a RangeError) instead of returned",
        },
        { name: "empty texts: nothing to count, no merge", kind: "edge", inputs: () => ({ texts: ["", "", ""], vocabSize: 300, specialTokens: ["<s>"] }) },
        { name: "fewer pairs than the vocabulary asks: training stops early", kind: "edge", inputs: () => ({ texts: ["ab ab"], vocabSize: 400, specialTokens: [] }) },
        { name: "equal counts: ties go to the smaller (left id, right id)", kind: "edge", inputs: () => ({ texts: ["xy ba dc yx"], vocabSize: 262, specialTokens: [] }) },
        { name: "overlapping pairs (aaaa): counted and merged left to right", kind: "edge", inputs: () => ({ texts: ["aaaaaaa aaa", "aa"], vocabSize: 261, specialTokens: ["<s>", "</s>"] }) },
        { name: "a special token's string in the training text is ordinary text", kind: "edge", inputs: () => ({ texts: ["<|im_end|> <|im_end|> <|im_end|>"], vocabSize: 270, specialTokens: ["<|im_end|>"] }) },
        { name: "no merge crosses a pre-token boundary (space, digits, punctuation)", kind: "edge", inputs: () => ({ texts: ["a1a1 a1. .a 1a a 1 a. .a"], vocabSize: 266, specialTokens: [] }) },
        ...fixtureCases(LESSON, "bpeTrain"),
        { name: "mixed scripts and emoji, 300 merges (seed 4)", kind: "random", inputs: () => ({ texts: [mixedText(4, 3000), mixedText(5, 2000)], vocabSize: 592, specialTokens: ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"] }) },
      ],
    },
    {
      name: "bpeEncode",
      file: "bpe.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.model, x.text),
      cases: [
        { name: "worked example: \"hug pugs<s>\" under the lesson's five merges", kind: "worked", inputs: () => ({ model: tinyModel(), text: "hug pugs<s>" }) },
        { name: "the empty text is []", kind: "edge", inputs: () => ({ model: tinyModel(), text: "" }) },
        { name: "the longest special token wins where two start together", kind: "edge", inputs: () => ({ model: tinyModel(), text: "<s><s><s>hug" }) },
        { name: "merges apply lowest rank first, not left to right", kind: "edge", inputs: () => ({ model: tinyModel(), text: " pug hugug" }) },
        ...ENCODE_TEXTS.map(([name, text]) => mm(name, () => text)),
        mm("5,000 characters of mixed scripts (seed 7)", () => mixedText(7, 5000), "random"),
        ...tokenizersFixtures("bpeEncode"),
      ],
    },
    {
      name: "bpeDecode",
      file: "bpe.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.model, x.ids),
      cases: [
        { name: "worked example: the ids of \"hug pugs<s>\" back to text", kind: "worked", inputs: () => ({ model: tinyModel(), ids: [259, 222, 261, 84, 0] }) },
        { name: "no ids is \"\"", kind: "edge", inputs: () => ({ model: tinyModel(), ids: [] }) },
        { name: "unknown ids are skipped", kind: "edge", inputs: () => ({ model: tinyModel(), ids: [259, 99999, 222, 261] }) },
        { name: "MiniMind: a character split across tokens decodes whole", kind: "edge", inputs: () => ({ model: minimindModel(), ids: [164, 191, 247, 165, 124, 243] }) },
        { name: "MiniMind: ids cut inside a character end in U+FFFD", kind: "edge", inputs: () => ({ model: minimindModel(), ids: [1, 5011, 164] }) },
        { name: "MiniMind: special and non-special added tokens decode as their text", kind: "edge", inputs: () => ({ model: minimindModel(), ids: [1, 87, 25, 26, 2, 0] }) },
        {
          name: "a leading U+FEFF (byte-order mark) is text like any other: kept, twice",
          kind: "edge",
          inputs: () => {
            const model = tinyModel();
            return { model, ids: tinyByteIds(model, "\uFEFF\uFEFFhug \uFEFF") };
          },
        },
        {
          name: "MiniMind: 110,000 random ids, a long document (about 520,000 bytes: no argument spreading) (seed 9)",
          kind: "random",
          call: (fn, x) => ends(fn(x.model, x.ids)),
          checks: "the decoded text's length and its first and last 1,000 characters",
          inputs: () => {
            const rng = new Rng(9);
            return { model: minimindModel(), ids: Array.from({ length: 110000 }, () => rng.int(3, 6399)) };
          },
        },
        {
          name: "MiniMind: 2,000 random ids (seed 8)",
          kind: "random",
          inputs: () => {
            const rng = new Rng(8);
            return { model: minimindModel(), ids: Array.from({ length: 2000 }, () => rng.int(0, 6399)) };
          },
        },
        ...tokenizersFixtures("bpeDecode"),
      ],
    },
    {
      name: "renderChat",
      file: "chat-template.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.messages, x.options),
      cases: [
        {
          name: "worked example: system, user, assistant",
          kind: "worked",
          inputs: () => ({
            messages: [
              { role: "system", content: "Be brief." },
              { role: "user", content: "2+3?" },
              { role: "assistant", content: "5" },
            ],
            options: {},
          }),
        },
        ...[21, 22, 23, 24].map((seed): CaseDef => ({ name: `a random conversation of every role and shape (seed ${seed})`, kind: "random", inputs: () => randomConversation(seed) })),
        { name: "no options argument at all", kind: "edge", call: (fn, x) => fn(x.messages), inputs: () => ({ messages: [{ role: "user", content: "hi" }] }) },
        ...fixtureCases(LESSON, "renderChat"),
      ],
    },
  ],
};

export default grader;
