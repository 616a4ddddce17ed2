/**
 * The capstone's tokenizer stage: lesson 4's `bpeTrain` (through the resolver: the learner's when it
 * passes grading) on a slice of the course's pretraining text, its compression on held-out text
 * beside the course tokenizer's, and a note of which tokenizer the later stages use. The model
 * stages keep the committed course tokenizer (datasets/tokenizer/tokenizer.json, the one adapter of
 * lib/train/tokenizer.ts), so that every checkpoint of every run shares one vocabulary; this stage
 * shows the learner's BPE doing the same job at a smaller size.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../course/paths.js";
import { resolveFunctions, type FunctionChoice } from "../resolver.js";
import { createTokenizer, type BpeModel } from "../tokenizer.js";
import { trainTokenizer } from "../train/tokenizer.js";
import type { Mode } from "./stages.js";

type BpeTrain = (texts: string[], vocabSize: number, specialTokens: string[]) => BpeModel;

export interface TokenizerReport {
  trainedOn: { bytes: number; texts: number };
  vocabSize: number;
  merges: number;
  seconds: number;
  /** UTF-8 bytes per token on held-out text (higher is better). */
  bytesPerToken: { yours: number; course: number };
  courseTokenizer: { name: string; vocabSize: number };
  example: { text: string; tokens: string[] };
  functions: FunctionChoice[];
}

const lines = (file: string, maxBytes: number): string[] => {
  const out: string[] = [];
  let bytes = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const text = (JSON.parse(line) as { text: string }).text;
    out.push(text);
    bytes += Buffer.byteLength(text);
    if (bytes >= maxBytes) break;
  }
  return out;
};

/** Trains the stage's BPE (quick: 40 KB, 400 ids; full: 400 KB, 1,024 ids) and measures it. */
export async function runTokenizerStage(mode: Mode, useReference: string[]): Promise<TokenizerReport> {
  const { fns, choices } = await resolveFunctions<{ bpeTrain: BpeTrain }>({ bpeTrain: "lesson-4" }, { useReference });
  const course = trainTokenizer();
  const corpus = join(ROOT, "datasets", "corpus", "pretrain.jsonl");
  // pretrain.jsonl is generated on first use (npm run data); the committed sample stands in for it.
  const texts = lines(existsSync(corpus) ? corpus : join(ROOT, "datasets", "corpus", "pretrain-sample.jsonl"), mode === "quick" ? 40_000 : 400_000);
  const held = lines(join(ROOT, "datasets", "corpus", "pretrain-heldout.jsonl"), 50_000);
  const specials = ["<|endoftext|>", course.bosToken, course.eosToken].filter((t, i, a) => a.indexOf(t) === i);
  const t0 = performance.now();
  const model = fns.bpeTrain(texts, mode === "quick" ? 400 : 1024, specials);
  const seconds = (performance.now() - t0) / 1000;
  const added = specials.map((content) => ({ id: model.vocab[content], content, special: true }));
  const yours = createTokenizer(model.vocab, model.merges, added);
  const bytes = held.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const count = (encode: (t: string) => number[]) => held.reduce((n, t) => n + encode(t).length, 0);
  const example = "Nora counted 12 apples and gave 5 to Tom.";
  const ids = yours.encode(example);
  return {
    trainedOn: { bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0), texts: texts.length },
    vocabSize: Object.keys(model.vocab).length,
    merges: model.merges.length,
    seconds: Number(seconds.toFixed(2)),
    bytesPerToken: { yours: Number((bytes / count((t) => yours.encode(t))).toFixed(3)), course: Number((bytes / count((t) => course.encode(t))).toFixed(3)) },
    courseTokenizer: { name: course.name, vocabSize: course.vocabSize },
    example: { text: example, tokens: ids.map((id) => yours.decode([id])) },
    functions: choices,
  };
}
