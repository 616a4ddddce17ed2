/**
 * Training data for `npm run train`: corpus files read record by record (malformed lines skipped
 * and counted by lib/data/jsonl.ts, never fatal), a held-out split, and each epoch's seeded order.
 * Samples themselves are built by the lesson functions (lesson 6's `pretrainSample`, lesson 5's
 * `sftSample`), which the stages and the labs get through the resolver.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { Rng } from "../random.js";
import { ROOT } from "../course/paths.js";
import { newReport, readJsonl } from "../data/jsonl.js";
import { TrainError } from "./errors.js";
import type { TextTokenizer } from "../tokenizer.js";

/** One training sample: ids and labels of the same length, −100 where a label is ignored. */
export interface Sample {
  inputIds: Int32Array;
  labels: Int32Array;
}

/** The records of a corpus file, and what was skipped. */
export interface Records<T> {
  records: T[];
  skipped: number;
  /** The first few skipped lines: "file:line: skipped (why)". */
  problems: string[];
}

/** A path as messages show it: relative to the repository root when inside it. */
export const shown = (p: string): string => {
  const r = relative(ROOT, p);
  return r === "" ? "." : r.startsWith("..") ? p : r;
};

/**
 * The records of `path`, at most `limit`: a .jsonl file is read with `check` (a malformed line is
 * skipped and counted); any other file gives one record per non-empty line, through `fromLine`.
 */
export async function loadRecords<T>(path: string, check: (v: unknown) => string | undefined, fromLine: (line: string) => T, limit = Infinity): Promise<Records<T>> {
  if (!existsSync(path)) throw new TrainError(`no data file at ${shown(path)}`);
  if (!path.endsWith(".jsonl")) {
    const lines = readFileSync(path, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "");
    return { records: lines.slice(0, limit).map(fromLine), skipped: 0, problems: [] };
  }
  const report = newReport();
  const records: T[] = [];
  for await (const r of readJsonl<T>(path, report, { check, onProblem: () => undefined, maxProblems: 3 })) {
    records.push(r);
    if (records.length >= limit) break;
  }
  return { records, skipped: report.skipped, problems: report.problems.map((p) => p.replace(`${path}:`, `${shown(path)}:`)) };
}

/** A lesson function's (ids, labels) as a Sample. */
export const asSample = (s: { inputIds: number[]; labels: number[] }): Sample => ({ inputIds: Int32Array.from(s.inputIds), labels: Int32Array.from(s.labels) });

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

/** A pretraining record of `readRecords`: `{"text": "…"}` or a plain line; otherwise why not. */
export function pickText(value: unknown): { text: string } | string {
  if (typeof value === "string") return { text: value };
  const text = (value as { text?: unknown } | null)?.text;
  return typeof text === "string" && text.trim() !== "" ? { text } : 'no non-empty "text" string';
}

/**
 * Synchronous reading of a small file (labs/post-training.ts): each non-empty line is `pick`ed,
 * parsed as JSON first in a .jsonl file; malformed lines are counted in `skipped`.
 */
export function readRecords<T>(path: string, pick: (value: unknown) => T | string): Records<T> {
  if (!existsSync(path)) throw new TrainError(`no data file at ${shown(path)}`);
  const out: Records<T> = { records: [], skipped: 0, problems: [] };
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let value: unknown = line.trim();
      if (path.endsWith(".jsonl")) {
        try {
          value = JSON.parse(line);
        } catch {
          value = undefined;
        }
      }
      const picked = value === undefined ? "not JSON" : pick(value);
      if (typeof picked !== "string") out.records.push(picked);
      else if (++out.skipped <= 3) out.problems.push(`${shown(path)}:${i + 1}: skipped (${picked})`);
    });
  return out;
}

/** Lesson 6's `pretrainSample`, as the stages and the labs take it through the resolver. */
export type PretrainSample = (text: string, tok: TextTokenizer, maxLength: number) => { inputIds: number[]; labels: number[] };
