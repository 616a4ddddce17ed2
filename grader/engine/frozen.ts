/**
 * Frozen expectations: what the reference process would send, computed once by an instructor's
 * release step and stored in grader/expected/<lesson>.json, so that a student edition grades
 * without solutions/ and without the mutants' source. Per case: the plan entry, the expected
 * output, a hash of the case's inputs (regenerated from their seeds in the learner's process and
 * checked, so a changed generator is caught), the reference's probe results, and a fingerprint of
 * each known mistake's output (enough to recognise a learner's output as equal to it, not to
 * recover it). No TensorFlow.js here except in `freezeLesson`, which the release step calls.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Encoded } from "./encoded.js";
import type { CaseOutput } from "./outputs.js";
import { paths } from "./paths.js";
import type { PlanEntry, ProbeOutput } from "./protocol.js";
import { ELEMENTWISE, type Tolerance } from "./types.js";

/** How many random ±1 projections a fingerprint keeps of each numeric leaf. */
const PROJECTIONS = 8;

/** One numeric leaf of a value (a tensor's data or a number), sketched. */
interface LeafSketch {
  /** Positions and kinds of NaN/±Inf, hashed: they must agree exactly. */
  nonFinite: string;
  /** Σ_i s_k(i)·x_i over the finite entries, for k < PROJECTIONS. */
  proj: number[];
  /** Σ_i (atol + rtol·|x_i|): how far a projection may move while every entry stays within tolerance. */
  bound: number;
}

/** A mistake's output, reduced to what recognising it needs. */
export interface Fingerprint {
  /** Everything but the numbers: kinds, shapes, dtypes, keys, strings. */
  structure: string;
  leaves: LeafSketch[];
}

export interface FrozenCase {
  plan: PlanEntry;
  inputsHash: string;
  expected: CaseOutput;
  mistakes: Array<{ mistake: string; fingerprint: Fingerprint | null }>;
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

/** s_k(i) ∈ {−1, +1}, the same in every process. */
function sign(k: number, i: number): number {
  let h = (Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  return (h ^ (h >>> 12)) & 1 ? 1 : -1;
}

function sketch(data: ArrayLike<number>, tol: Tolerance): LeafSketch {
  const proj = new Array<number>(PROJECTIONS).fill(0);
  const bad: string[] = [];
  let bound = 0;
  for (let i = 0; i < data.length; i++) {
    const x = Number(data[i]);
    if (!Number.isFinite(x)) {
      bad.push(`${i}:${x}`);
      continue;
    }
    bound += tol.atol + tol.rtol * Math.abs(x);
    for (let k = 0; k < PROJECTIONS; k++) proj[k] += sign(k, i) * x;
  }
  return { nonFinite: createHash("sha256").update(bad.join(",")).digest("hex").slice(0, 16), proj, bound };
}

/** The structure of a value and its numeric leaves, in a fixed order. */
function walk(v: Encoded, leaves: Array<ArrayLike<number>>): string {
  switch (v.t) {
    case "tensor":
      leaves.push(v.data);
      return `T${v.dtype}[${v.shape}]`;
    case "number":
      leaves.push([v.v]);
      return "N";
    case "array":
      return `[${v.items.map((x) => walk(x, leaves)).join(",")}]`;
    case "object":
      return `{${v.keys.map((k, i) => `${JSON.stringify(k)}:${walk(v.values[i], leaves)}`).join(",")}}`;
    case "string":
    case "boolean":
      return `${v.t}:${JSON.stringify(v.v)}`;
    case "disposed-tensor":
      return `D${v.dtype}[${v.shape}]`;
    case "other":
      return `O:${v.what}`;
    default:
      return v.t;
  }
}

/** The fingerprint of a mistake's output (null when the mistake produced none on this case). */
export function fingerprint(output: CaseOutput): Fingerprint | null {
  if (output.status !== "ok") return null;
  const leaves: Array<ArrayLike<number>> = [];
  const structure = walk(output.value, leaves);
  return { structure, leaves: leaves.map((d) => sketch(d, ELEMENTWISE)) };
}

/**
 * True when `got` may equal the fingerprinted output within the mistake-matching tolerance: the
 * same structure, the same NaN/Inf, and every projection within its bound. An output equal to it
 * elementwise always matches; a different one matches only by a coincidence of eight projections.
 */
export function matchesFingerprint(got: CaseOutput, fp: Fingerprint): boolean {
  if (got.status !== "ok") return false;
  const leaves: Array<ArrayLike<number>> = [];
  if (walk(got.value, leaves) !== fp.structure || leaves.length !== fp.leaves.length) return false;
  return leaves.every((data, j) => {
    const want = fp.leaves[j];
    const mine = sketch(data, ELEMENTWISE);
    if (mine.nonFinite !== want.nonFinite) return false;
    // |Σ s·(g − m)| ≤ Σ|g − m| ≤ Σ(atol + rtol·|m|) when every entry is within tolerance of m.
    return mine.proj.every((p, k) => Math.abs(p - want.proj[k]) <= want.bound * (1 + 1e-6) + 1e-9);
  });
}

/** A stable hash of a case's encoded inputs. */
export function hashEncoded(v: Encoded): string {
  const h = createHash("sha256");
  const leaves: Array<ArrayLike<number>> = [];
  h.update(walk(v, leaves));
  for (const d of leaves) h.update(Buffer.from(Float64Array.from(d, Number).buffer));
  return h.digest("hex").slice(0, 24);
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
  h.update(readFileSync(join(paths.graders, `${lesson}.ts`)));
  return h.digest("hex").slice(0, 24);
}

/** The first known mistake whose fingerprint the output matches (the same order as live matching). */
export function frozenMistake(c: FrozenCase, got: CaseOutput): string | undefined {
  return c.mistakes.find((m) => m.fingerprint !== null && matchesFingerprint(got, m.fingerprint))?.mistake;
}
