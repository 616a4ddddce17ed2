/**
 * npm run train-tokenizer — trains the course tokenizer and writes datasets/tokenizer/tokenizer.json.
 *
 * Byte-level BPE (lesson 4's bpeTrain, the learner's when it passes grading, else the reference)
 * over the course corpus: datasets/corpus/pretrain.jsonl (generated from its seed first if it is
 * missing) and the SFT conversations' text, with MiniMind's 36 special tokens at MiniMind's ids
 * 0-35 (read from its tokenizer.json) and a vocabulary of 2,048 (see datasets/README.md for why).
 * The same inputs give the same file byte for byte. It ends with a compression report: UTF-8
 * bytes per token on held-out text, for this tokenizer and MiniMind's. It takes no arguments:
 * `--help` prints the usage and writes nothing.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { Presets, SingleBar } from "cli-progress";
import { ROOT } from "../../grader/engine/paths.js";
import { isConversationRecord, isTextRecord, newReport, readJsonl } from "../../lib/data/jsonl.js";
import { resolveFunction } from "../../lib/resolver.js";
import { parseOptions, runCommand } from "../loop/cli-support.js";
import { loadTokenizer, saveTokenizer, type BpeModel, type Tokenizer } from "../../lib/tokenizer.js";
import { CORPUS_DIR, PRETRAIN, writePretrain } from "../data/generate.js";

export const VOCAB_SIZE = 2048;
export const COURSE_TOKENIZER = join(ROOT, "datasets", "tokenizer", "tokenizer.json");
const MINIMIND = join(ROOT, "datasets", "minimind-tokenizer", "tokenizer.json");

type BpeTrain = (texts: string[], vocabSize: number, specialTokens: string[]) => BpeModel;

function bar(label: string, total: number): SingleBar {
  const b = new SingleBar({ format: `${label.padEnd(22)} [{bar}] {percentage}% · {value}/{total}`, hideCursor: true }, Presets.shades_classic);
  b.start(total, 0);
  return b;
}

/** How many of readTexts' texts came from sft.jsonl (they follow the pretraining texts). */
let sftCount = 0;

async function readTexts(): Promise<string[]> {
  const pretrain = join(CORPUS_DIR, PRETRAIN.file);
  if (!existsSync(pretrain)) {
    const g = bar("generating corpus", PRETRAIN.bytes);
    await writePretrain(CORPUS_DIR, (n) => g.update(Math.min(n, PRETRAIN.bytes)));
    g.stop();
  }
  const texts: string[] = [];
  const report = newReport();
  const size = statSync(pretrain).size;
  const b = bar("reading pretrain.jsonl", size);
  let bytes = 0;
  for await (const rec of readJsonl<{ text: string }>(pretrain, report, { check: isTextRecord })) {
    texts.push(rec.text);
    bytes += Buffer.byteLength(rec.text) + 12;
    if (texts.length % 2000 === 0) b.update(Math.min(bytes, size));
  }
  b.update(size);
  b.stop();
  for await (const rec of readJsonl<{ conversations: Array<{ content?: string }> }>(join(CORPUS_DIR, "sft.jsonl"), report, { check: isConversationRecord })) {
    texts.push(rec.conversations.map((m) => m.content ?? "").filter(Boolean).join("\n"));
    sftCount++;
  }
  if (report.skipped) console.warn(`skipped ${report.skipped} malformed line(s)`);
  return texts;
}

/** Bytes per token of `tok` over `texts`. */
function bytesPerToken(tok: Tokenizer, texts: string[]): { bytes: number; tokens: number } {
  let bytes = 0;
  let tokens = 0;
  for (const t of texts) {
    bytes += Buffer.byteLength(t);
    tokens += tok.encode(t).length;
  }
  return { bytes, tokens };
}

async function heldOut(): Promise<{ en: string[]; zh: string[] }> {
  const report = newReport();
  const en: string[] = [];
  const zh: string[] = [];
  for await (const rec of readJsonl<{ text: string }>(join(CORPUS_DIR, "pretrain-heldout.jsonl"), report, { check: isTextRecord })) {
    for (const para of rec.text.split("\n")) (/[\u4e00-\u9fff]/.test(para) ? zh : en).push(para);
  }
  return { en, zh };
}

const USAGE = `usage: npm run train-tokenizer

Trains the course tokenizer (lesson 4's bpeTrain: yours once it passes grading, else the reference)
on datasets/corpus/ and rewrites datasets/tokenizer/tokenizer.json (vocabulary ${VOCAB_SIZE}), then reports
its compression beside MiniMind's. The same corpus gives the same file byte for byte.`;

async function main(): Promise<number> {
  parseOptions(process.argv.slice(2), {});
  const started = performance.now();
  const { fn: bpeTrain, source, why } = await resolveFunction<BpeTrain>("lesson-4", "bpeTrain");
  console.log(`bpeTrain: ${source === "exercises" ? "yours" : "the reference"} (${why})`);
  const texts = await readTexts();
  const specials = loadTokenizer(MINIMIND).addedTokens;
  const t = bar("training (one call)", 1);
  const t0 = performance.now();
  const model = bpeTrain(texts, VOCAB_SIZE, specials.map((a) => a.content));
  t.update(1);
  t.stop();
  const trainS = (performance.now() - t0) / 1000;
  const special = new Set(specials.filter((a) => a.special).map((a) => a.content));
  saveTokenizer(model, COURSE_TOKENIZER, (tok) => special.has(tok));
  const corpusMB = texts.reduce((n, s) => n + Buffer.byteLength(s), 0) / 1e6;
  console.log(`trained ${model.merges.length} merges on ${texts.length} texts (${corpusMB.toFixed(1)} MB) in ${trainS.toFixed(1)} s; wrote ${COURSE_TOKENIZER.slice(ROOT.length + 1)}`);

  const course = loadTokenizer(COURSE_TOKENIZER);
  const minimind = loadTokenizer(MINIMIND);
  const held = await heldOut();
  console.log("\ncompression on held-out text (UTF-8 bytes per token, higher is better):");
  console.log("                       course (2,048)   MiniMind (6,400)");
  for (const [name, set] of [["English", held.en], ["Chinese", held.zh]] as const) {
    const a = bytesPerToken(course, set);
    const b = bytesPerToken(minimind, set);
    console.log(`  ${name.padEnd(20)} ${(a.bytes / a.tokens).toFixed(2).padStart(14)}   ${(b.bytes / b.tokens).toFixed(2).padStart(16)}   (${a.bytes} bytes)`);
  }
  const pretrainTokens = texts.slice(0, texts.length - sftCount).reduce((n, s) => n + course.encode(s).length, 0);
  console.log(`\npretrain.jsonl: ${pretrainTokens} tokens with the course tokenizer. Done in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return 0;
}

await runCommand(USAGE, main, { lessonFunctions: true });
