/**
 * Frozen expectations: what the reference process would send, computed once by an instructor's
 * release step and stored in grader/expected/<lesson>.json, so that a student edition grades
 * without solutions/ and without the mutants' source. Per case: the plan entry, the expected
 * output, a hash of the case's inputs (regenerated from their seeds in the learner's process and
 * checked, so a changed generator is caught), the reference's probe results, and each known
 * mistake's output as its difference from the expected one (no mistake's code). No TensorFlow.js
 * here: freeze.ts computes them, in the release step.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { encodedStructure, type Encoded } from "./encoded.js";
import type { CaseOutput } from "./outputs.js";
import { casesFile, paths } from "./paths.js";
import type { PlanEntry, ProbeOutput } from "./protocol.js";
import { matchMistake } from "./judge.js";

/**
 * A known mistake's output on one case, stored as its difference from the expected output: the
 * positions where it differs (bit for bit) and its values there. Most mistakes differ from the
 * reference in a few places, so this is small; matching rebuilds the mistake's output and compares
 * with the very rule live matching uses, so the named mistakes are the same. It holds a wrong
 * answer, never the code of one.
 */
export type Fingerprint =
  /** The mistake's output has another structure than the expected one: stored whole. */
  | { whole: Encoded }
  /** Leaf by leaf (in `encodedStructure` order of the expected value): the differing positions and values. */
  | { diffs: Array<{ at: Int32Array; values: number[] }> };

export interface FrozenCase {
  plan: PlanEntry;
  inputsHash: string;
  expected: CaseOutput;
  /** Each known mistake of the case's exercise: its text, its mutant's name (for its Chinese text, grader/lesson-NN/zh.ts; absent in older editions) and its fingerprint. */
  mistakes: Array<{ mistake: string; name?: string; fingerprint: Fingerprint | null }>;
  probe?: ProbeOutput[];
}

export interface FrozenLesson {
  version: 1;
  lesson: string;
  backend: string;
  /** Hash of the lesson's reference files and grader when frozen (checked by `npm run release -- --check`). */
  referenceHash: string;
  cases: FrozenCase[];
}

/** The fingerprint of a mistake's output against the expected one (null when the mistake produced none). */
export function fingerprint(output: CaseOutput, expected: CaseOutput): Fingerprint | null {
  if (output.status !== "ok") return null;
  const mine: Array<ArrayLike<number>> = [];
  const theirs: Array<ArrayLike<number>> = [];
  if (expected.status !== "ok" || encodedStructure(output.value, mine) !== encodedStructure(expected.value, theirs)) return { whole: output.value };
  return {
    diffs: mine.map((m, j) => {
      const at: number[] = [];
      const values: number[] = [];
      for (let i = 0; i < m.length; i++) {
        if (!Object.is(Number(m[i]), Number(theirs[j][i]))) {
          at.push(i);
          values.push(Number(m[i]));
        }
      }
      return { at: Int32Array.from(at), values };
    }),
  };
}

/** The mistake's whole output, rebuilt from its fingerprint and the expected output. */
export function mistakeOutput(fp: Fingerprint, expected: CaseOutput): Encoded | undefined {
  if ("whole" in fp) return fp.whole;
  if (expected.status !== "ok") return undefined;
  let j = 0;
  const rebuild = (v: Encoded): Encoded => {
    const apply = (leaf: ArrayLike<number>): number[] => {
      const out = Array.from(leaf, Number);
      const d = fp.diffs[j++];
      d.at.forEach((i, k) => (out[i] = d.values[k]));
      return out;
    };
    switch (v.t) {
      case "tensor":
        return { ...v, data: apply(v.data) };
      case "number":
        return { t: "number", v: apply([v.v])[0] };
      case "array":
        return { t: "array", items: v.items.map(rebuild) };
      case "object":
        return { t: "object", keys: v.keys, values: v.values.map(rebuild) };
      default:
        return v;
    }
  };
  return rebuild(expected.value);
}

// ---------------------------------------------------------------- the file

/** Typed arrays as base64, so a file of expectations stays compact and exact. */
function replacer(_key: string, v: unknown): unknown {
  if (v instanceof Float32Array) return { $f32: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  if (v instanceof Int32Array) return { $i32: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  if (v instanceof Uint8Array) return { $u8: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  if (typeof v === "number" && !Number.isFinite(v)) return { $num: String(v) };
  return v;
}

function reviver(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, string>;
  const bytes = (s: string) => {
    const b = Buffer.from(s, "base64");
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  };
  if ("$f32" in o) return new Float32Array(bytes(o.$f32));
  if ("$i32" in o) return new Int32Array(bytes(o.$i32));
  if ("$u8" in o) return new Uint8Array(bytes(o.$u8));
  if ("$num" in o) return Number(o.$num);
  return v;
}

/** JSON with typed arrays kept exactly (base64) and non-finite numbers kept. */
export function toJson(v: unknown): string {
  return JSON.stringify(v, replacer);
}

export function fromJson<T>(text: string): T {
  return JSON.parse(text, reviver) as T;
}

export function serializeFrozen(f: FrozenLesson): string {
  return `${toJson(f)}\n`;
}

export function parseFrozen(text: string): FrozenLesson {
  return fromJson<FrozenLesson>(text);
}

export function frozenPath(lesson: string): string {
  return join(paths.expected, `${lesson}.json`);
}

/** The lesson's frozen expectations, when this copy of the course has them. */
export function readFrozen(lesson: string): FrozenLesson | undefined {
  const file = frozenPath(lesson);
  return existsSync(file) ? parseFrozen(readFileSync(file, "utf8")) : undefined;
}

/** Hash of what a lesson's expectations depend on: its reference files and its grader. */
export function referenceHash(lesson: string): string {
  const h = createHash("sha256");
  const dir = join(paths.solutions, lesson);
  for (const f of existsSync(dir) ? readdirSync(dir).filter((x) => x.endsWith(".ts")).sort() : []) h.update(f).update(readFileSync(join(dir, f)));
  h.update(readFileSync(casesFile(lesson)));
  return h.digest("hex").slice(0, 24);
}

/** The first known mistake whose output the learner's equals, by the rule live matching uses (judge.ts). */
export function frozenMistake(c: FrozenCase, got: CaseOutput): string | undefined {
  const outputs = c.mistakes.map(({ mistake, fingerprint: fp }): { mistake: string; output: CaseOutput } => {
    const value = fp ? mistakeOutput(fp, c.expected) : undefined;
    return { mistake, output: value ? { status: "ok", value, leaked: 0, mutated: [], ms: 0 } : { status: "error", message: "no output", ms: 0 } };
  });
  return matchMistake(got, outputs, { output: c.expected, tolerance: c.plan.tolerance });
}
