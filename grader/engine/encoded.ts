/**
 * Values as data. A learner's output crosses a process boundary before it is judged, so every
 * value a function returns is first encoded in the process that computed it (encode.ts, which
 * needs TensorFlow.js) and compared here, in the parent, on plain data: a learner's module can
 * patch `Math`, `dataSync` or a kernel in its own process and change nothing in this one.
 * No TensorFlow.js here: the command line imports this module at start-up.
 */
import { createHash } from "node:crypto";
import { fmt } from "./format.js";
import type { Tolerance } from "./types.js";

export type TensorData = Float32Array | Int32Array | Uint8Array | number[];

/** A value as it travels between processes (Node's "advanced" serialisation keeps typed arrays). */
export type Encoded =
  | { t: "tensor"; shape: number[]; dtype: string; data: TensorData }
  | { t: "disposed-tensor"; shape: number[]; dtype: string }
  | { t: "number"; v: number }
  | { t: "string"; v: string }
  | { t: "boolean"; v: boolean }
  | { t: "undefined" }
  | { t: "null" }
  | { t: "promise" }
  | { t: "array"; items: Encoded[] }
  /**
   * A plain object's own enumerable string keys, in insertion order, and their values. `ordered`
   * is set on an expected value only (by `markKeyOrder`), when the exercise or case declares
   * `keyOrder`: then the result's keys must come in the same order.
   */
  | { t: "object"; keys: string[]; values: Encoded[]; ordered?: true }
  | { t: "other"; what: string };

export interface Mismatch {
  message: string;
  details: string[];
}

/**
 * null when `got` matches `expected` within `tol`; otherwise what differs. An object result is
 * compared on the union of both sides' keys: a key the reference returns and the result lacks, and
 * a key the result has and the reference does not return, each fail with the key's name (a key
 * whose value is `undefined` counts as absent). Key order is ignored unless the expected object is
 * `ordered`. Every differing field is reported: the first (in `order`, then the expected key order,
 * then the extra keys) is the message, the others follow as "also" lines, so a wrong upstream
 * output that explains a wrong downstream one is named first.
 */
export function compareEncoded(got: Encoded, expected: Encoded, tol: Tolerance, path = "", order: readonly string[] = []): Mismatch | null {
  const where = path === "" ? "the result" : `\`${path}\``;
  switch (expected.t) {
    case "tensor":
    case "disposed-tensor": {
      if (got.t === "disposed-tensor") return { message: `${where} was disposed before it was returned`, details: [] };
      if (got.t !== "tensor") return { message: `${where} should be a tf.Tensor of shape [${expected.shape}] (${expected.dtype}), got ${describeEncoded(got)}`, details: [] };
      if (expected.t === "disposed-tensor") return { message: `grader bug: the reference disposed ${where}`, details: [] };
      return compareTensors(got, expected, tol, where);
    }
    case "number":
      if (got.t !== "number") return { message: `${where} should be a number, got ${describeEncoded(got)}`, details: [] };
      return compareArrays([got.v], [expected.v], [], tol, where);
    case "string":
      if (got.t === "string" && got.v === expected.v) return null;
      if (got.t === "string" && Math.max(got.v.length, expected.v.length) > LONG_TEXT) return stringMismatch(got.v, expected.v, where);
      return { message: `${where} should be ${JSON.stringify(expected.v)}, got ${describeEncoded(got)}`, details: [] };
    case "boolean":
      if (got.t === expected.t && got.v === expected.v) return null;
      return { message: `${where} should be ${JSON.stringify(expected.v)}, got ${describeEncoded(got)}`, details: [] };
    case "array": {
      if (got.t !== "array") return { message: `${where} should be an array of ${expected.items.length}, got ${describeEncoded(got)}`, details: [] };
      const ids = integerItems(expected) && integerItems(got) && Math.max(got.items.length, expected.items.length) > ID_CONTEXT * 2;
      if (ids) return idsMismatch(numbersOf(got), numbersOf(expected), where);
      if (got.items.length !== expected.items.length) return { message: `${where} should have ${expected.items.length} entries, got ${got.items.length}`, details: [] };
      for (let i = 0; i < expected.items.length; i++) {
        const m = compareEncoded(got.items[i], expected.items[i], tol, `${path}[${i}]`);
        if (m) return m;
      }
      return null;
    }
    case "object":
      return compareObjects(got, expected, tol, path, order);
    default:
      return got.t === expected.t ? null : { message: `${where} should be ${describeEncoded(expected)}, got ${describeEncoded(got)}`, details: [] };
  }
}

/** The keys of an encoded object whose values are not `undefined`, in its order, with their values. */
function definedEntries(v: Extract<Encoded, { t: "object" }>): Map<string, Encoded> {
  const out = new Map<string, Encoded>();
  v.keys.forEach((k, i) => {
    if (v.values[i].t !== "undefined") out.set(k, v.values[i]);
  });
  return out;
}

function compareObjects(got: Encoded, expected: Extract<Encoded, { t: "object" }>, tol: Tolerance, path: string, order: readonly string[]): Mismatch | null {
  const where = path === "" ? "the result" : `\`${path}\``;
  const want = definedEntries(expected);
  if (got.t !== "object") return { message: `${where} should be an object with keys { ${[...want.keys()].join(", ")} }, got ${describeEncoded(got)}`, details: [] };
  const have = definedEntries(got);
  const keys = [...order.filter((k) => want.has(k)), ...[...want.keys()].filter((k) => !order.includes(k))];
  const found: Mismatch[] = [];
  for (const key of keys) {
    const mine = have.get(key);
    const sub = path === "" ? key : `${path}.${key}`;
    const m = mine === undefined ? { message: `${where} is missing the key \`${key}\``, details: [] } : compareEncoded(mine, want.get(key)!, tol, sub);
    if (m) found.push(m);
  }
  const extra = [...have.keys()].filter((k) => !want.has(k));
  for (const key of extra) found.push({ message: `${where} has a key \`${key}\` the reference does not return`, details: [] });
  if (expected.ordered && extra.length === 0 && keys.every((k) => have.has(k))) {
    const mine = [...have.keys()];
    const theirs = [...want.keys()];
    const i = mine.findIndex((k, j) => k !== theirs[j]);
    if (i >= 0) found.push({ message: `${where} has its keys in another order: key ${i + 1} is \`${mine[i]}\`, expected \`${theirs[i]}\` (the order of the keys is part of the contract here)`, details: [] });
  }
  if (found.length === 0) return null;
  const [first, ...rest] = found;
  return { message: first.message, details: [...first.details, ...rest.map((m) => `also: ${m.message}`)] };
}

/**
 * `v` with every object inside it (itself included) marked `ordered`, so that a comparison against
 * it also checks key order. Used on expected values of cases that declare `keyOrder`.
 */
export function markKeyOrder(v: Encoded): Encoded {
  switch (v.t) {
    case "object":
      return { t: "object", keys: v.keys, values: v.values.map(markKeyOrder), ordered: true };
    case "array":
      return { t: "array", items: v.items.map(markKeyOrder) };
    default:
      return v;
  }
}

function compareTensors(got: Extract<Encoded, { t: "tensor" }>, expected: Extract<Encoded, { t: "tensor" }>, tol: Tolerance, where: string): Mismatch | null {
  if (!sameShape(got.shape, expected.shape)) {
    return { message: `${where} has shape [${got.shape}], expected [${expected.shape}]`, details: [shapeHint(got.shape, expected.shape)].filter((s) => s !== "") };
  }
  if (got.dtype !== expected.dtype) {
    return { message: `${where} has dtype ${got.dtype}, expected ${expected.dtype}`, details: [`cast it with tf.cast(x, "${expected.dtype}")`] };
  }
  if (expected.dtype === "int32" && expected.shape.length === 1 && expected.shape[0] > ID_CONTEXT * 2) return idsMismatch(Array.from(got.data), Array.from(expected.data), where);
  return compareArrays(got.data, expected.data, expected.shape, tol, where);
}

/** Strings longer than this are reported by their first difference, with context, not printed whole. */
const LONG_TEXT = 80;
/** Characters shown on each side of a string's first difference. */
const TEXT_CONTEXT = 24;
/** Ids shown on each side of an id sequence's first difference. */
const ID_CONTEXT = 5;

function integerItems(e: Encoded): e is Extract<Encoded, { t: "array" }> {
  return e.t === "array" && e.items.length > 0 && e.items.every((x) => x.t === "number" && Number.isInteger(x.v));
}

function numbersOf(e: Extract<Encoded, { t: "array" }>): number[] {
  return e.items.map((x) => (x as { v: number }).v);
}

/** Index of the first position where `a` and `b` differ (the shorter length when one is a prefix of the other), or -1. */
function firstDifference<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * A long string's mismatch: the first differing character, with a short window of context on both
 * sides (JSON-escaped, so whitespace and control characters show), instead of both strings whole.
 */
function stringMismatch(got: string, want: string, where: string): Mismatch {
  const chars = (t: string) => Array.from(t);
  const g = chars(got);
  const w = chars(want);
  const i = firstDifference(g, w);
  const window = (t: string[]) => `${i > TEXT_CONTEXT ? "…" : ""}${JSON.stringify(t.slice(Math.max(0, i - TEXT_CONTEXT), i + TEXT_CONTEXT).join(""))}${i + TEXT_CONTEXT < t.length ? "…" : ""}`;
  return {
    message: `${where} differs from the expected text at character ${i} (got ${g.length} characters, expected ${w.length})`,
    details: [`expected around there: ${window(w)}`, `got around there:      ${window(g)}`],
  };
}

/** An id sequence's mismatch: the first differing position, with the ids around it on both sides. */
function idsMismatch(got: ArrayLike<number>, want: ArrayLike<number>, where: string): Mismatch | null {
  const i = firstDifference(got, want);
  if (i < 0) return null;
  const window = (t: ArrayLike<number>) => {
    const from = Math.max(0, i - ID_CONTEXT);
    const to = Math.min(t.length, i + ID_CONTEXT + 1);
    const shown = Array.from({ length: to - from }, (_, k) => (from + k === i ? `«${t[from + k]}»` : String(t[from + k])));
    return `[${from > 0 ? "…, " : ""}${shown.join(", ")}${to < t.length ? ", …" : ""}]`;
  };
  const lengths = got.length === want.length ? "" : ` (got ${got.length} ids, expected ${want.length})`;
  return {
    message: `${where} differs from the expected ids at position ${i}${lengths}`,
    details: [`expected: ${window(want)}`, `got:      ${window(got)}`, "tolerance: exact"],
  };
}

function compareArrays(got: ArrayLike<number>, want: ArrayLike<number>, shape: number[], tol: Tolerance, where: string): Mismatch | null {
  const badFinite: number[] = [];
  let worst = -1;
  let worstExcess = 0;
  let maxAbs = 0;
  let maxRel = 0;
  let failures = 0;
  for (let i = 0; i < want.length; i++) {
    const g = Number(got[i]);
    const e = Number(want[i]);
    if (Number.isNaN(e) && Number.isNaN(g)) continue;
    if (!Number.isFinite(g) || !Number.isFinite(e)) {
      if (g === e) continue;
      badFinite.push(i);
      failures++;
      continue;
    }
    const abs = Math.abs(g - e);
    const rel = abs / Math.max(Math.abs(e), Number.MIN_VALUE);
    maxAbs = Math.max(maxAbs, abs);
    if (e !== 0) maxRel = Math.max(maxRel, rel);
    const excess = abs - (tol.atol + tol.rtol * Math.abs(e));
    if (excess > 0) {
      failures++;
      if (excess > worstExcess) {
        worstExcess = excess;
        worst = i;
      }
    }
  }
  if (failures === 0) return null;
  const details: string[] = [];
  if (badFinite.length > 0) {
    const shown = badFinite.slice(0, 5).map((i) => `${fmtIndex(i, shape)} got ${fmt(got[i])}, expected ${fmt(want[i])}`);
    details.push(`non-finite mismatch at ${badFinite.length} position(s): ${shown.join("; ")}${badFinite.length > 5 ? "; …" : ""}`);
  }
  if (worst >= 0) {
    details.push(`worst at ${fmtIndex(worst, shape)}: got ${fmt(got[worst])}, expected ${fmt(want[worst])}`);
    details.push(maxRel > 0 ? `max abs diff ${fmt(maxAbs)}, max rel diff ${fmt(maxRel)}` : `max abs diff ${fmt(maxAbs)} (where the reference is 0)`);
  }
  details.push(tol.atol === 0 && tol.rtol === 0 ? "tolerance: exact" : `tolerance: |got − expected| ≤ ${tol.atol} + ${tol.rtol}·|expected|`);
  const count = want.length === 1 ? "" : ` (${failures} of ${want.length} elements)`;
  const what = badFinite.length > 0 && worst < 0 ? "has NaN/Inf where the reference is finite (or the reverse)" : "differs from the reference";
  return { message: `${where} ${what}${count}`, details };
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

function shapeHint(got: number[], want: number[]): string {
  const size = (s: number[]) => s.reduce((p, d) => p * d, 1);
  if (size(got) === size(want)) return "same number of elements: a missing reshape or squeeze?";
  if (want.length === 0 && got.length > 0) return "expected a scalar: did you forget to reduce (sum/mean)?";
  if (got.length === want.length + 1 && got[got.length - 1] === 1) return "a trailing axis of size 1: squeeze it";
  return "";
}

function fmtIndex(flat: number, shape: number[]): string {
  if (shape.length === 0) return "the scalar";
  const idx: number[] = [];
  let rest = flat;
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(rest % shape[d]);
    rest = Math.floor(rest / shape[d]);
  }
  return `[${idx.join(", ")}]`;
}

/** A short description of an encoded value, for "expected X, got Y". */
export function describeEncoded(v: Encoded): string {
  switch (v.t) {
    case "tensor":
      return `a tf.Tensor of shape [${v.shape}] (${v.dtype})`;
    case "disposed-tensor":
      return `a disposed tf.Tensor of shape [${v.shape}]`;
    case "undefined":
      return "undefined (did you forget to return?)";
    case "null":
      return "null";
    case "promise":
      return "a Promise (the function must be synchronous: use dataSync(), not data())";
    case "array":
      return `an array of ${v.items.length}`;
    case "object":
      return `an object with keys { ${v.keys.join(", ")} }`;
    case "other":
      return v.what;
    default:
      return `${v.t} ${JSON.stringify(v.v)}`;
  }
}

/** The single number of a scalar-like value (a number, or a tensor of one element); undefined otherwise. */
export function scalarOf(v: Encoded): number | undefined {
  if (v.t === "number") return v.v;
  if (v.t === "tensor" && v.data.length === 1) return Number(v.data[0]);
  return undefined;
}

/** The structure of a value and its numeric leaves (tensor data, or a number as one element), in a fixed order. */
export function encodedStructure(v: Encoded, leaves: Array<ArrayLike<number>>): string {
  switch (v.t) {
    case "tensor":
      leaves.push(v.data);
      return `T${v.dtype}[${v.shape}]`;
    case "number":
      leaves.push([v.v]);
      return "N";
    case "array":
      return `[${v.items.map((x) => encodedStructure(x, leaves)).join(",")}]`;
    case "object":
      return `{${v.keys.map((k, i) => `${JSON.stringify(k)}:${encodedStructure(v.values[i], leaves)}`).join(",")}}`;
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

/** A stable hash of a case's encoded inputs. */
export function hashEncoded(v: Encoded): string {
  const h = createHash("sha256");
  const leaves: Array<ArrayLike<number>> = [];
  h.update(encodedStructure(v, leaves));
  for (const d of leaves) h.update(Buffer.from(Float64Array.from(d, Number).buffer));
  return h.digest("hex").slice(0, 24);
}
