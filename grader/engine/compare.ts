/**
 * Compares what an implementation returned with what the reference returned, and explains any
 * difference in the terms a learner needs: structure, shape, dtype, NaN/Inf, and the worst element.
 */
import * as tf from "../../lib/tf.js";
import { fmt } from "./format.js";
import type { Tolerance } from "./types.js";

export interface Mismatch {
  message: string;
  details: string[];
}

/** null when `got` matches `expected` within `tol`; otherwise what differs. */
export function compareValues(got: unknown, expected: unknown, tol: Tolerance, path = ""): Mismatch | null {
  const where = path === "" ? "the result" : `\`${path}\``;
  if (expected instanceof tf.Tensor) {
    if (!(got instanceof tf.Tensor)) {
      return {
        message: `${where} should be a tf.Tensor of shape [${expected.shape}] (${expected.dtype}), got ${describe(got)}`,
        details: [],
      };
    }
    return compareTensors(got, expected, tol, where);
  }
  if (typeof expected === "number") {
    if (typeof got !== "number") return { message: `${where} should be a number, got ${describe(got)}`, details: [] };
    return compareArrays(Float64Array.of(got), Float64Array.of(expected), [], tol, where);
  }
  if (typeof expected === "string" || typeof expected === "boolean") {
    if (got === expected) return null;
    return { message: `${where} should be ${JSON.stringify(expected)}, got ${describe(got)}`, details: [] };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return { message: `${where} should be an array of ${expected.length}, got ${describe(got)}`, details: [] };
    if (got.length !== expected.length) {
      return { message: `${where} should have ${expected.length} entries, got ${got.length}`, details: [] };
    }
    for (let i = 0; i < expected.length; i++) {
      const m = compareValues(got[i], expected[i], tol, `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (expected !== null && typeof expected === "object") {
    if (got === null || typeof got !== "object" || got instanceof tf.Tensor || Array.isArray(got)) {
      return {
        message: `${where} should be an object with keys { ${Object.keys(expected).join(", ")} }, got ${describe(got)}`,
        details: [],
      };
    }
    for (const key of Object.keys(expected)) {
      if (!(key in got)) return { message: `${where} is missing the key \`${key}\``, details: [] };
      const m = compareValues((got as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], tol, path === "" ? key : `${path}.${key}`);
      if (m) return m;
    }
    return null;
  }
  return got === expected ? null : { message: `${where} should be ${String(expected)}, got ${describe(got)}`, details: [] };
}

function compareTensors(got: tf.Tensor, expected: tf.Tensor, tol: Tolerance, where: string): Mismatch | null {
  if (got.isDisposed) return { message: `${where} was disposed before it was returned`, details: [] };
  if (!sameShape(got.shape, expected.shape)) {
    return {
      message: `${where} has shape [${got.shape}], expected [${expected.shape}]`,
      details: [shapeHint(got.shape, expected.shape)].filter((s) => s !== ""),
    };
  }
  if (got.dtype !== expected.dtype) {
    return {
      message: `${where} has dtype ${got.dtype}, expected ${expected.dtype}`,
      details: [`cast it with tf.cast(x, "${expected.dtype}")`],
    };
  }
  return compareArrays(got.dataSync(), expected.dataSync(), expected.shape, tol, where);
}

type NumArray = ArrayLike<number>;

function compareArrays(got: NumArray, want: NumArray, shape: number[], tol: Tolerance, where: string): Mismatch | null {
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

function sameShape(a: number[], b: number[]): boolean {
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

/** A short description of any value, for "expected X, got Y". */
export function describe(v: unknown): string {
  if (v instanceof tf.Tensor) return `a tf.Tensor of shape [${v.shape}] (${v.dtype})`;
  if (v === undefined) return "undefined (did you forget to return?)";
  if (v === null) return "null";
  if (v instanceof Promise) return "a Promise (the function must be synchronous: use dataSync(), not data())";
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === "object") return `an object with keys { ${Object.keys(v as object).join(", ")} }`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** Every tensor inside a value (the value itself, array items, object fields), each once. */
export function tensorsIn(v: unknown, out: Set<tf.Tensor> = new Set()): Set<tf.Tensor> {
  if (v instanceof tf.Tensor) out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => tensorsIn(x, out));
  else if (v !== null && typeof v === "object" && !(v instanceof Promise)) Object.values(v).forEach((x) => tensorsIn(x, out));
  return out;
}
