/**
 * JSON Lines, streamed: one record a line, read without loading the file. A malformed line (bad
 * JSON, or a record the caller's check refuses) is reported with its file and line number and
 * skipped; the run goes on, and the caller gets the count of skipped lines at the end.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export interface JsonlReport {
  read: number;
  skipped: number;
  /** "datasets/corpus/sft.jsonl:17: Unexpected token …", at most `maxProblems` of them. */
  problems: string[];
}

export interface JsonlOptions<T> {
  /** Returns why a parsed value is not a valid record, or undefined when it is. */
  check?: (value: unknown) => string | undefined;
  /** Called for each problem as it is found (default: console.warn). */
  onProblem?: (message: string) => void;
  maxProblems?: number;
}

/** Streams the records of `path`; the report is filled in as reading goes and final when the loop ends. */
export async function* readJsonl<T>(path: string, report: JsonlReport, opts: JsonlOptions<T> = {}): AsyncGenerator<T> {
  const warn = opts.onProblem ?? ((m: string) => console.warn(m));
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    let value: unknown;
    let why: string | undefined;
    try {
      value = JSON.parse(line);
      why = opts.check?.(value);
    } catch (err) {
      why = (err as Error).message;
    }
    if (why !== undefined) {
      report.skipped++;
      const message = `${path}:${n}: skipped (${why})`;
      if (report.problems.length < (opts.maxProblems ?? 20)) report.problems.push(message);
      warn(message);
      continue;
    }
    report.read++;
    yield value as T;
  }
}

/** A fresh, empty report. */
export function newReport(): JsonlReport {
  return { read: 0, skipped: 0, problems: [] };
}

/** A check for `{ text: string }` records (pretraining). */
export const isTextRecord = (v: unknown): string | undefined =>
  v !== null && typeof v === "object" && typeof (v as { text?: unknown }).text === "string" ? undefined : 'not an object with a string "text"';

/** A check for `{ conversations: [{ role, content }…] }` records (SFT, RL). */
export const isConversationRecord = (v: unknown): string | undefined => {
  const c = (v as { conversations?: unknown } | null)?.conversations;
  if (!Array.isArray(c) || c.length === 0) return 'no "conversations" list';
  return c.every((m) => m && typeof m === "object" && typeof (m as { role?: unknown }).role === "string") ? undefined : "a message without a role";
};
