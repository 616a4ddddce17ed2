/**
 * Lesson 5 — SFT data and labels. Cases for exercises/lesson-5/sft.ts: the lesson's worked
 * example on MiniMind's tokenizer, edge cases (left-out defaults, draws exactly on the ratio,
 * MiniMind's dataset rows with null and "" keys, half markers, a pad id that is not 0), seeded
 * random id lists and conversations, and Python fixtures restating dataset/lm_dataset.py
 * (grader/lesson-5/parity.py).
 */
import { dataFixtureCases } from "../engine/data-cases.js";
import { charTokenizer, minimindTokenizer } from "../engine/datasets.js";
import { Rng } from "../../lib/random.js";
import { EXACT } from "../engine/types.js";
import type { CaseDef, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-5";

/** MiniMind's ids of "<|im_start|>assistant\n" and "<|im_end|>\n". */
const START = [1, 1388, 570, 811, 234];
const END = [2, 234];

/** The worked example's ids: a user turn then an assistant turn, as MiniMind's tokenizer encodes them. */
const WORKED_IDS = [1, 832, 311, 234, 107, 108, 2, 234, 1, 1388, 570, 811, 234, 4301, 2, 234, 0, 0];

/** Seeded ids with `spans` assistant spans; the last may be left open. */
function randomIds(seed: number, length: number, spans: number, openEnd: boolean): number[] {
  const rng = new Rng(seed);
  const ids = Array.from({ length }, () => rng.int(3, 6399));
  let at = 0;
  for (let s = 0; s < spans && at + 10 < length; s++) {
    at += rng.int(0, 6);
    ids.splice(at, START.length, ...START);
    at += START.length + rng.int(1, 8);
    if (openEnd && s === spans - 1) break;
    ids.splice(at, END.length, ...END);
    at += END.length;
  }
  return ids.slice(0, length);
}

const labelCase = (name: string, kind: CaseDef["kind"], ids: () => number[], maxLength?: number): CaseDef => ({
  name,
  kind,
  inputs: () => {
    const inputIds = ids();
    return { inputIds, assistantStart: [...START], assistantEnd: [...END], maxLength: maxLength ?? inputIds.length };
  },
});

/** A seeded conversation for sftSample with MiniMind's tokenizer. */
function randomConversation(seed: number) {
  const rng = new Rng(seed);
  const say = () => ["Sure.", "7 × 6 = 42", "你好", "Let me think.", "ok"][rng.int(0, 4)];
  const turns = rng.int(1, 3);
  const conversations: Array<Record<string, unknown>> = [];
  for (let t = 0; t < turns; t++) {
    conversations.push({ role: "user", content: say() });
    conversations.push(rng.next() < 0.5 ? { role: "assistant", content: say() } : { role: "assistant", content: say(), reasoning_content: say() });
  }
  return { conversations, tokenizer: minimindTokenizer(), maxLength: rng.int(20, 80), random: () => rng.next() };
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "sftLabels",
      file: "sft.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.inputIds, x.assistantStart, x.assistantEnd, x.maxLength),
      cases: [
        labelCase("worked example: one user turn, one assistant turn, two pads (MiniMind's ids)", "worked", () => [...WORKED_IDS]),
        labelCase("no assistant marker: all -100", "edge", () => [5, 6, 7, 2, 201]),
        labelCase("an assistant span with no end runs to the last id", "edge", () => [9, ...START, 11, 12, 13]),
        labelCase("maxLength below the length: nothing labelled at or after maxLength", "edge", () => [...START, 11, 12, 13, ...END, 9], 7),
        labelCase("a start marker cut at the very end is no span", "edge", () => [9, 9, ...START.slice(0, 4)]),
        labelCase("back-to-back spans", "edge", () => [...START, 5, ...END, ...START, 6, 7, ...END]),
        {
          name: "an open span with maxLength above the length: labels stop at the last id (same length as inputIds)",
          kind: "edge",
          inputs: () => ({ inputIds: [9, ...START, 11, 12], assistantStart: [...START], assistantEnd: [...END], maxLength: 12 }),
        },
        labelCase("no ids at all: no labels", "edge", () => []),
        labelCase("half an end marker (<|im_end|> with no \\n after it) inside a span does not end it", "edge", () => [9, ...START, 11, 2, 12, 13, ...END, 9, 2]),
        labelCase("5 spans in 300 ids (seed 1)", "random", () => randomIds(1, 300, 5, false)),
        labelCase("3 spans, the last open, 120 ids (seed 2)", "random", () => randomIds(2, 120, 3, true)),
        ...dataFixtureCases(LESSON, "sftLabels", false),
      ],
    },
    {
      name: "preProcessingChat",
      file: "sft.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.conversations, x.random, x.systemPrompts, x.addSystemRatio),
      cases: ([
        {
          name: "worked example: draws 0.15 then 0.5 add prompt 1 of 2",
          kind: "worked",
          inputs: () => ({ conversations: [{ role: "user", content: "hi" }], random: [0.15, 0.5], systemPrompts: ["A.", "B."], addSystemRatio: 0.2 }),
        },
        { name: "the default prompts and ratio", kind: "edge", call: (fn, x) => fn(x.conversations, x.random), inputs: () => ({ conversations: [{ role: "user", content: "q" }], random: [0.0, 0.99] }) },
        { name: "tools on a later message: unchanged, no draw", kind: "edge", inputs: () => ({ conversations: [{ role: "user", content: "q" }, { role: "assistant", content: "a", tools: "[]x" }], random: [], systemPrompts: ["A."], addSystemRatio: 1 }) },
        {
          name: "the default ratio (0.2): a draw of exactly 0.2 adds nothing",
          kind: "edge",
          call: (fn, x) => fn(x.conversations, x.random, x.systemPrompts),
          inputs: () => ({ conversations: [{ role: "user", content: "q" }], random: [0.2], systemPrompts: ["A.", "B."] }),
        },
        {
          name: "MiniMind's dataset rows: every message has tools: null or \"\", which is no tool conversation (draws 0.1, 0.7)",
          kind: "edge",
          inputs: () => ({
            conversations: [
              { role: "user", content: "q", tools: null, tool_calls: null, reasoning_content: null },
              { role: "assistant", content: "a", tools: "", tool_calls: null, reasoning_content: null },
            ],
            random: [0.1, 0.7],
            systemPrompts: ["A.", "B.", "C."],
            addSystemRatio: 0.2,
          }),
        },
        ...[3, 4, 5].map((seed): CaseDef => ({
          name: `20 conversations in a row from one seeded source (seed ${seed})`,
          kind: "random",
          call: (fn, x) => (x.convs as unknown[]).map((c) => fn(c, x.random, x.systemPrompts, x.addSystemRatio)),
          inputs: () => {
            const rng = new Rng(seed);
            const convs = Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? [{ role: "system", content: "s" }, { role: "user", content: "u" }] : [{ role: "user", content: `u${i}` }]));
            return { convs, random: () => rng.next(), systemPrompts: ["A.", "B.", "C."], addSystemRatio: 0.5 };
          },
        })),
        ...dataFixtureCases(LESSON, "preProcessingChat", false),
      ] as CaseDef[]).map(replayArrays),
    },
    {
      name: "postProcessingChat",
      file: "sft.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.prompt, x.random, x.emptyThinkRatio),
      cases: ([
        { name: "worked example: draw 0.73 > 0.2 removes the empty think block", kind: "worked", inputs: () => ({ prompt: "<|im_start|>assistant\n<think>\n\n</think>\n\n4<|im_end|>\n", random: [0.73], emptyThinkRatio: 0.2 }) },
        { name: "the default ratio; a draw of exactly 0.2 keeps it", kind: "edge", call: (fn, x) => fn(x.prompt, x.random), inputs: () => ({ prompt: "<think>\n\n</think>\n\nx", random: [0.2] }) },
        { name: "a think block with one newline is not empty", kind: "edge", inputs: () => ({ prompt: "<think>\n</think>\n\nx", random: [], emptyThinkRatio: 0 }) },
        { name: "the default ratio: a draw of 0.5 (above 0.2) removes the block", kind: "edge", call: (fn, x) => fn(x.prompt, x.random), inputs: () => ({ prompt: "a<think>\n\n</think>\n\nb", random: [0.5] }) },
        {
          name: "30 prompts in a row from one seeded source (seed 6)",
          kind: "random",
          call: (fn, x) => (x.prompts as string[]).map((p) => fn(p, x.random, 0.4)),
          inputs: () => {
            const rng = new Rng(6);
            const prompts = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? "no think" : "a<think>\n\n</think>\n\nb<think>\n\n</think>\n\nc"));
            return { prompts, random: () => rng.next() };
          },
        },
        ...dataFixtureCases(LESSON, "postProcessingChat", false),
      ] as CaseDef[]).map(replayArrays),
    },
    {
      name: "sftSample",
      file: "sft.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.conversations, x.tokenizer, x.maxLength, x.random),
      cases: ([
        {
          name: "worked example: MiniMind's tokenizer, one turn, maxLength 24, draws 0.5 and 0.1",
          kind: "worked",
          inputs: () => ({ conversations: [{ role: "user", content: "hi" }, { role: "assistant", content: "ok" }], tokenizer: minimindTokenizer(), maxLength: 24, random: [0.5, 0.1] }),
        },
        {
          name: "tool calls as a JSON string, tools on the system message",
          kind: "edge",
          inputs: () => ({
            conversations: [
              { role: "system", content: "Use tools.", tools: JSON.stringify([{ type: "function", function: { name: "calc" } }]) },
              { role: "user", content: "2*3" },
              { role: "assistant", content: "", tool_calls: JSON.stringify([{ name: "calc", arguments: { e: "2*3" } }]) },
              { role: "tool", content: "6" },
              { role: "assistant", content: "6" },
            ],
            tokenizer: minimindTokenizer(),
            maxLength: 200,
            random: [0.9],
          }),
        },
        {
          name: "a tokenizer whose pad id is not 0 (a character-level stand-in, pad id 3), maxLength 90",
          kind: "edge",
          inputs: () => ({
            conversations: [{ role: "user", content: "2+2?" }, { role: "assistant", content: "4" }],
            tokenizer: { ...charTokenizer(), padId: 3 },
            maxLength: 90,
            random: [0.5, 0.9],
          }),
        },
        {
          name: "MiniMind's dataset rows: unused keys are null or \"\" (tools, tool_calls, reasoning_content)",
          kind: "edge",
          inputs: () => ({
            conversations: [
              { role: "system", content: "Be brief.", tools: null, tool_calls: null, reasoning_content: null },
              { role: "user", content: "hi", tools: "", tool_calls: "", reasoning_content: null },
              { role: "assistant", content: "ok", tools: null, tool_calls: "", reasoning_content: "" },
            ],
            tokenizer: minimindTokenizer(),
            maxLength: 40,
            random: [0.9],
          }),
        },
        ...[7, 8, 9].map((seed): CaseDef => ({ name: `a random conversation, MiniMind's tokenizer (seed ${seed})`, kind: "random", inputs: () => randomConversation(seed) })),
        ...dataFixtureCases(LESSON, "sftSample", true),
      ] as CaseDef[]).map(replayArrays),
    },
  ],
};

/** Hand-written cases give their draws as a list too: replay it. */
function replayArrays(c: CaseDef): CaseDef {
  return {
    ...c,
    inputs: () => {
      const x = c.inputs();
      if (!Array.isArray(x.random)) return x;
      const values = x.random as number[];
      let i = 0;
      return { ...x, random: () => values[i++] ?? (() => { throw new Error(`the case supplies ${values.length} random draws and all were used`); })() };
    },
  };
}

export default grader;
