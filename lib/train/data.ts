/**
 * Training data for `npm run train`: corpus files read line by line (bad lines skipped and
 * counted, never fatal), samples built as MiniMind's datasets build them, a held-out split, and
 * each epoch's seeded order.
 */
import { existsSync, readFileSync } from "node:fs";
import { Rng } from "../../grader/engine/random.js";
import { TrainError } from "./errors.js";
import type { TrainTokenizer } from "./tokenizer.js";

/** One training sample: ids and labels of the same length, −100 where a label is ignored. */
export interface Sample {
  inputIds: Int32Array;
  labels: Int32Array;
}

/** The records of a corpus file, and what was skipped. */
export interface Records<T> {
  records: T[];
  /** Lines that were not a valid record, counted, with the first few line numbers and why. */
  skipped: number;
  skippedExamples: string[];
}

/**
 * Reads `path` one record a line: in a .jsonl file each line is JSON and `pick` returns the record
 * (or a reason it is malformed); in any other file each non-empty line is `pick`ed as a string.
 */
export function readRecords<T>(path: string, pick: (value: unknown) => T | string): Records<T> {
  if (!existsSync(path)) throw new TrainError(`no data file at ${path}`);
  const jsonl = path.endsWith(".jsonl");
  const out: Records<T> = { records: [], skipped: 0, skippedExamples: [] };
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let value: unknown = line.trim();
      if (jsonl) {
        try {
          value = JSON.parse(line);
        } catch {
          value = undefined;
        }
      }
      const picked = value === undefined ? "not JSON" : pick(value);
      if (typeof picked === "string") {
        out.skipped++;
        if (out.skippedExamples.length < 3) out.skippedExamples.push(`line ${i + 1}: ${picked}`);
      } else out.records.push(picked);
    });
  return out;
}

/** A pretraining record: `{"text": "…"}` (MiniMind's pretrain jsonl) or a plain line. */
export function pickText(value: unknown): { text: string } | string {
  if (typeof value === "string") return { text: value };
  const text = (value as { text?: unknown } | null)?.text;
  return typeof text === "string" && text.trim() !== "" ? { text } : 'no non-empty "text" string';
}

/**
 * MiniMind's pretraining sample: the text's tokens cut to maxLength − 2, then [BOS] + tokens +
 * [EOS], padded to maxLength; labels are the ids with −100 on padding (dataset/lm_dataset.py:47-55).
 */
export function pretrainSample(tok: TrainTokenizer, text: string, maxLength: number): Sample {
  const tokens = [tok.bosId, ...tok.encode(text).slice(0, maxLength - 2), tok.eosId];
  const inputIds = new Int32Array(maxLength).fill(tok.padId);
  inputIds.set(tokens);
  return { inputIds, labels: inputIds.map((id) => (id === tok.padId ? -100 : id)) };
}

/** Every `every`-th item (index mod every = every − 1) held out, the rest trained on. */
export function splitHeldOut<T>(items: readonly T[], every: number): { train: T[]; heldOut: T[] } {
  const held = (i: number) => every > 0 && i % every === every - 1;
  return { train: items.filter((_, i) => !held(i)), heldOut: items.filter((_, i) => held(i)) };
}

/**
 * The order of `n` samples in `epoch`: a permutation seeded by seed + epoch alone, so any epoch's
 * order can be rebuilt on resume (MiniMind: setup_seed(42 + epoch); randperm, trainer/train_pretrain.py:159).
 */
export function epochOrder(n: number, seed: number, epoch: number): number[] {
  const rng = new Rng(seed + epoch);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
