/**
 * The course's own corpora, generated from a seed (no data set from a hub): pretraining text,
 * SFT conversations, DPO pairs, RL prompts with verifiable answers and calculator agent tasks,
 * each with a held-out split. Every record is built by small grammars over word lists written
 * for this course and by arithmetic the generator computes itself, so every answer is correct by
 * construction and every file is reproducible byte for byte from its seed.
 *
 *   npm run data            # writes datasets/corpus/*.jsonl (pretrain.jsonl ≈ 6 MB is gitignored)
 */
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Rng } from "../../lib/random.js";
import { CALCULATOR_TOOL } from "../../lib/rl/agent-tools.js";

type R = Rng;
const pick = <T>(r: R, xs: readonly T[]): T => xs[r.int(0, xs.length - 1)]!;

const NAMES = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Liam", "Mei", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wen", "Yusuf", "Zoe"];
const PLACES = ["the market", "the library", "the harbour", "the school", "the garden", "the station", "the bakery", "the museum", "the river", "the hill", "the workshop", "the farm"];
const THINGS = ["apples", "books", "pencils", "stones", "shells", "coins", "cards", "boxes", "cups", "seeds", "marbles", "stamps"];
const ANIMALS = ["cat", "dog", "fox", "owl", "horse", "goat", "duck", "rabbit", "crow", "turtle"];
const COLOURS = ["red", "blue", "green", "yellow", "white", "black", "orange", "purple", "grey", "brown"];
const ADJ = ["small", "old", "quiet", "busy", "bright", "cold", "warm", "tall", "narrow", "wide"];
const VERBS_PAST = ["walked to", "ran to", "looked around", "stopped at", "waited near", "cycled to", "wandered through"];
const WEATHER = ["it was raining", "the sun was out", "a cold wind blew", "the sky was grey", "snow had fallen overnight", "the air was still"];
const FEEL = ["happy", "tired", "curious", "calm", "surprised", "hungry", "proud"];
const ZH_NAMES = ["小明", "小红", "小刚", "小丽", "小华", "小芳", "阿强", "小雨"];
const ZH_THINGS = ["苹果", "书", "铅笔", "石头", "贝壳", "硬币", "杯子", "种子"];
const ZH_PLACES = ["市场", "图书馆", "学校", "花园", "车站", "博物馆", "河边", "农场"];
const ZH_ANIMALS = ["猫", "狗", "狐狸", "猫头鹰", "马", "山羊", "鸭子", "兔子"];
const ZH_COLOURS = ["红色", "蓝色", "绿色", "黄色", "白色", "黑色"];
const DIGITS_ZH = "零一二三四五六七八九";

function zhNumber(n: number): string {
  if (n < 10) return DIGITS_ZH[n]!;
  if (n < 20) return "十" + (n % 10 ? DIGITS_ZH[n % 10] : "");
  if (n < 100) return DIGITS_ZH[Math.floor(n / 10)] + "十" + (n % 10 ? DIGITS_ZH[n % 10] : "");
  return String(n);
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** One English story paragraph: people, places, counts that add up. */
function story(r: R): string {
  const a = pick(r, NAMES);
  let b = pick(r, NAMES);
  if (b === a) b = "a friend";
  const thing = pick(r, THINGS);
  const x = r.int(2, 40);
  const y = r.int(1, 30);
  const s: string[] = [];
  s.push(`${cap(pick(r, ["one morning", "in the evening", "on a " + pick(r, ADJ) + " day", "last week", "after lunch"]))} ${pick(r, WEATHER)}, and ${a} ${pick(r, VERBS_PAST)} ${pick(r, PLACES)}.`);
  s.push(`${a} had ${x} ${thing} in a ${pick(r, COLOURS)} bag.`);
  if (r.next() < 0.5) s.push(`${b} gave ${a} ${y} more, so ${a} had ${x + y} ${thing}.`);
  else if (y < x) s.push(`${a} gave ${y} of them to ${b}, which left ${x - y} ${thing}.`);
  else s.push(`${b} had ${y} ${thing}, ${y > x ? y - x + " more than" : "as many as"} ${a}.`);
  s.push(`A ${pick(r, ADJ)} ${pick(r, ANIMALS)} watched them from ${pick(r, PLACES)}.`);
  s.push(`${a} felt ${pick(r, FEEL)} and ${pick(r, ["went home", "stayed a while", "sat down to rest", "started counting again", "wrote everything down"])}.`);
  return s.join(" ");
}

/** A short factual paragraph about numbers, computed, not recalled. */
function numberFacts(r: R): string {
  const n = r.int(2, 999);
  const facts = [
    `${n} is ${n % 2 ? "odd" : "even"}.`,
    `${n} plus ${n % 97} is ${n + (n % 97)}.`,
    `Twice ${n} is ${2 * n}, and half of ${2 * n} is ${n}.`,
    `The digits of ${n} add up to ${String(n).split("").reduce((t, d) => t + Number(d), 0)}.`,
    `${n} written backwards is ${String(n).split("").reverse().join("")}.`,
    `${n} divided by 7 is ${Math.floor(n / 7)} with remainder ${n % 7}.`,
  ];
  const k = r.int(2, 4);
  const out: string[] = [];
  for (let i = 0; i < k; i++) out.push(pick(r, facts));
  return [...new Set(out)].join(" ");
}

/** A Chinese paragraph from the same kind of grammar. */
function zhStory(r: R): string {
  const a = pick(r, ZH_NAMES);
  const t = pick(r, ZH_THINGS);
  const x = r.int(2, 30);
  const y = r.int(1, 20);
  return `${a}去了${pick(r, ZH_PLACES)}，带着${zhNumber(x)}个${t}。` +
    `后来又得到${zhNumber(y)}个，现在一共有${zhNumber(x + y)}个${t}。` +
    `一只${pick(r, ZH_COLOURS)}的${pick(r, ZH_ANIMALS)}在旁边看着。${a}觉得很${pick(r, ["开心", "累", "好奇", "平静"])}。`;
}

/** One pretraining document: a few paragraphs, about one in six Chinese. */
export function pretrainDoc(r: R): string {
  const parts: string[] = [];
  const n = r.int(1, 3);
  for (let i = 0; i < n; i++) {
    const u = r.next();
    parts.push(u < 0.55 ? story(r) : u < 0.83 ? numberFacts(r) : zhStory(r));
  }
  return parts.join("\n");
}

// ---- tasks with checkable answers (shared by SFT, DPO and RL) ----

export interface Task {
  question: string;
  answer: string;
  /** A step-by-step reasoning the SFT data may put in a think block. */
  reasoning: string;
  kind: "add" | "sub" | "mul" | "reverse" | "count" | "upper" | "length";
}

const WORDS = ["banana", "mirror", "planet", "river", "coffee", "pepper", "letter", "balloon", "committee", "bookkeeper", "tomato", "engineer"];

export function task(r: R): Task {
  const kind = pick(r, ["add", "sub", "mul", "reverse", "count", "upper", "length"] as const);
  const a = r.int(2, 99);
  const b = r.int(2, 99);
  const w = pick(r, WORDS);
  switch (kind) {
    case "add":
      return { kind, question: `What is ${a} + ${b}?`, answer: String(a + b), reasoning: `${a} + ${b}: ${a} + ${b - (b % 10)} = ${a + b - (b % 10)}, then + ${b % 10} = ${a + b}.` };
    case "sub":
      return { kind, question: `What is ${Math.max(a, b)} - ${Math.min(a, b)}?`, answer: String(Math.abs(a - b)), reasoning: `The larger number is ${Math.max(a, b)}; taking away ${Math.min(a, b)} leaves ${Math.abs(a - b)}.` };
    case "mul": {
      const c = r.int(2, 12);
      return { kind, question: `What is ${a} × ${c}?`, answer: String(a * c), reasoning: `${a} × ${c} = ${a} × ${c - 1} + ${a} = ${a * (c - 1)} + ${a} = ${a * c}.` };
    }
    case "reverse":
      return { kind, question: `Write the word "${w}" backwards.`, answer: w.split("").reverse().join(""), reasoning: `The letters of ${w} are ${w.split("").join("-")}; from the end: ${w.split("").reverse().join("-")}.` };
    case "count": {
      const ch = pick(r, [...new Set(w.split(""))]);
      const n = w.split("").filter((c) => c === ch).length;
      return { kind, question: `How many times does the letter "${ch}" appear in "${w}"?`, answer: String(n), reasoning: `Spell it: ${w.split("").join("-")}. The letter ${ch} appears ${n} time${n === 1 ? "" : "s"}.` };
    }
    case "upper":
      return { kind, question: `Write "${w}" in capital letters.`, answer: w.toUpperCase(), reasoning: `Each letter of ${w} in upper case gives ${w.toUpperCase()}.` };
    default:
      return { kind, question: `How many letters are in the word "${w}"?`, answer: String(w.length), reasoning: `${w.split("").join("-")}: that is ${w.length} letters.` };
  }
}

/** A wrong but plausible answer to a task (for DPO's rejected side). */
function wrongAnswer(r: R, t: Task): string {
  const n = Number(t.answer);
  if (Number.isFinite(n)) return String(n + pick(r, [-10, -2, -1, 1, 2, 10]));
  return t.answer.length > 2 ? t.answer.slice(1) + t.answer[0] : t.answer + "s";
}

const SYSTEMS = ["You are a helpful assistant.", "Answer briefly and accurately.", "You are a careful assistant: check your arithmetic before you answer."];

function sftRecord(r: R): object {
  const u = r.next();
  const t = task(r);
  const conv: Array<Record<string, unknown>> = [];
  if (r.next() < 0.3) conv.push({ role: "system", content: pick(r, SYSTEMS) });
  if (u < 0.15) {
    const a = r.int(11, 999);
    const b = r.int(11, 99);
    const expr = `${a}*${b}`;
    conv.length = 0;
    conv.push({ role: "system", content: "You can use tools.", tools: JSON.stringify([CALCULATOR_TOOL]) });
    conv.push({ role: "user", content: `What is ${a} × ${b}? Use the calculator.` });
    conv.push({ role: "assistant", content: "", tool_calls: JSON.stringify([{ name: "calculate", arguments: { expression: expr } }]) });
    conv.push({ role: "tool", content: String(a * b) });
    conv.push({ role: "assistant", content: `${a} × ${b} = ${a * b}.` });
  } else if (u < 0.45) {
    conv.push({ role: "user", content: t.question });
    conv.push({ role: "assistant", content: t.answer, reasoning_content: t.reasoning });
  } else if (u < 0.55) {
    conv.push({ role: "user", content: t.question });
    conv.push({ role: "assistant", content: `<think>\n${t.reasoning}\n</think>\n\n${t.answer}` });
  } else {
    conv.push({ role: "user", content: t.question });
    conv.push({ role: "assistant", content: `The answer is ${t.answer}.` });
    if (r.next() < 0.3) {
      const t2 = task(r);
      conv.push({ role: "user", content: t2.question });
      conv.push({ role: "assistant", content: t2.answer });
    }
  }
  return { conversations: conv };
}

function dpoRecord(r: R): object {
  const t = task(r);
  const user = { role: "user", content: t.question };
  const good = r.next() < 0.5 ? `The answer is ${t.answer}.` : t.answer;
  const bad = r.next() < 0.7 ? `The answer is ${wrongAnswer(r, t)}.` : `I am not sure, but it might be ${wrongAnswer(r, t)}.`;
  return { chosen: [user, { role: "assistant", content: good }], rejected: [user, { role: "assistant", content: bad }] };
}

/**
 * Sorting three two-digit numbers, smallest first: the RL task whose held-out split measures generalisation. Each
 * number is one token of the course tokenizer, so the model has to compare and copy tokens, not
 * recall a table; there are 704,880 questions, so a held-out question is new to the model.
 */
export function sortTask(r: R): { question: string; answer: string; kind: "sort" } {
  const xs = new Set<number>();
  while (xs.size < 3) xs.add(r.int(10, 99));
  const shown = [...xs];
  return { kind: "sort", question: `Sort ${shown.join(", ")}.`, answer: [...shown].sort((a, b) => a - b).join(", ") };
}

/** MiniMind's RLAIF format: the prompt conversation ending in an empty assistant turn, plus the checkable answer. */
function rlLine(t: { question: string; answer: string; kind: string }): object {
  return { conversations: [{ role: "user", content: t.question }, { role: "assistant", content: "" }], answer: t.answer, kind: t.kind };
}

const rlRecord = (r: R): object => rlLine(task(r));
const rlSortRecord = (r: R): object => rlLine(sortTask(r));

/** MiniMind's agent-RL format (lm_dataset.py:226-252): tools on the system message, `gt` the answer. */
function agentRecord(r: R): object {
  const a = r.int(101, 9999);
  const b = r.int(11, 999);
  const op = pick(r, ["+", "-", "*"] as const);
  const value = op === "+" ? a + b : op === "-" ? a - b : a * b;
  const shown = op === "*" ? "×" : op;
  return {
    conversations: [
      { role: "system", content: "You can use tools.", tools: JSON.stringify([CALCULATOR_TOOL]) },
      { role: "user", content: `Use the calculator: what is ${a} ${shown} ${b}?` },
      { role: "assistant", content: "" },
    ],
    gt: String(value),
  };
}

interface Part {
  count: number;
  make: (r: R) => object;
  seed: number;
}

/** A file: one part, or several appended in order (each from its own seed). */
interface Spec extends Part {
  file: string;
  more?: Part[];
}

/** Every file: train and held-out splits draw from different seeds of the same generator. */
export const SPECS: Spec[] = [
  { file: "sft.jsonl", count: 2000, make: sftRecord, seed: 101 },
  { file: "sft-heldout.jsonl", count: 400, make: sftRecord, seed: 102 },
  { file: "dpo.jsonl", count: 1000, make: dpoRecord, seed: 201 },
  { file: "dpo-heldout.jsonl", count: 200, make: dpoRecord, seed: 202 },
  // The sort prompts were added after the other kinds: appended, so the first 1,000 lines stay as they were.
  { file: "rl.jsonl", count: 1000, make: rlRecord, seed: 301, more: [{ count: 2000, make: rlSortRecord, seed: 303 }] },
  { file: "rl-heldout.jsonl", count: 200, make: rlRecord, seed: 302, more: [{ count: 200, make: rlSortRecord, seed: 304 }] },
  { file: "agent.jsonl", count: 500, make: agentRecord, seed: 401 },
  { file: "agent-heldout.jsonl", count: 100, make: agentRecord, seed: 402 },
  { file: "pretrain-sample.jsonl", count: 400, make: (r) => ({ text: pretrainDoc(r) }), seed: 2 },
  { file: "pretrain-heldout.jsonl", count: 1000, make: (r) => ({ text: pretrainDoc(r) }), seed: 3 },
];

/** The large pretraining file: generated at first use, gitignored. */
export const PRETRAIN = { file: "pretrain.jsonl", bytes: 6_000_000, seed: 1 };

export const CORPUS_DIR = join(import.meta.dirname, "..", "..", "datasets", "corpus");

/** The question a record asks (its first user message), or the whole record when it has none. */
function questionOf(rec: object): string {
  const r = rec as { conversations?: Array<{ role: string; content: string }>; chosen?: Array<{ role: string; content: string }> };
  const user = (r.conversations ?? r.chosen)?.find((m) => m.role === "user");
  return user ? user.content : JSON.stringify(rec);
}

/**
 * Writes the small files (committed). A held-out file never asks a question its training file asks
 * (nor the same question twice): two seeds of a small grammar draw the same questions often (count
 * and length questions did, every one), and a held-out score over trained questions measures recall.
 * A grammar too small for `count` new questions gives fewer; the file says how many it has by its length.
 */
export function writeSmallFiles(dir = CORPUS_DIR): void {
  mkdirSync(dir, { recursive: true });
  const asked = new Map<string, Set<string>>();
  for (const s of SPECS) {
    const lines: string[] = [];
    const heldOut = s.file.endsWith("-heldout.jsonl") && !s.file.startsWith("pretrain");
    const trained = heldOut ? asked.get(s.file.replace("-heldout", "")) ?? new Set<string>() : undefined;
    const mine = new Set<string>();
    for (const part of [s, ...(s.more ?? [])]) {
      const r = new Rng(part.seed);
      let written = 0;
      for (let attempts = 0; written < part.count && attempts < part.count * 100; attempts++) {
        const rec = part.make(r);
        const q = questionOf(rec);
        if (trained && (trained.has(q) || mine.has(q))) continue;
        mine.add(q);
        lines.push(JSON.stringify(rec));
        written++;
      }
    }
    asked.set(s.file, mine);
    writeFileSync(join(dir, s.file), lines.join("\n") + "\n");
  }
}

/** Writes pretrain.jsonl (≈ PRETRAIN.bytes); `onProgress(bytes)` after each document. */
export async function writePretrain(dir = CORPUS_DIR, onProgress?: (bytes: number) => void): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, PRETRAIN.file);
  // A name of this process's own: two first uses at once (a test run, a capstone beside a train)
  // each write their own file and rename it into place; the bytes are the same.
  const tmp = `${path}.${process.pid}.tmp`;
  const out = createWriteStream(tmp);
  const r = new Rng(PRETRAIN.seed);
  let bytes = 0;
  let chunk = "";
  while (bytes < PRETRAIN.bytes) {
    const line = JSON.stringify({ text: pretrainDoc(r) }) + "\n";
    bytes += Buffer.byteLength(line);
    chunk += line;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await new Promise<void>((res) => out.once("drain", () => res()));
      chunk = "";
      onProgress?.(bytes);
    }
  }
  out.write(chunk);
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
  const { renameSync } = await import("node:fs");
  renameSync(tmp, path);
  onProgress?.(bytes);
  return path;
}
