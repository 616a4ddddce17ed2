/**
 * The TensorFlow.js side of comparison: values become plain data (encoded.ts) in the process that
 * computed them, and `compareValues` compares two live values by encoding both (tests and in-process
 * checks use it; the command line compares encoded values in the parent).
 */
import * as tf from "../../lib/tf.js";
import { compareEncoded, describeEncoded, type Encoded, type Mismatch } from "./encoded.js";
import type { Tolerance } from "./types.js";

export type { Mismatch } from "./encoded.js";

/**
 * Any value as data: tensors become shape, dtype and a copy of their values. Throws when the value
 * cannot be read (a getter that throws, a Proxy that refuses); cycles become an "other" entry.
 */
export function encodeValue(v: unknown, seen: Set<object> = new Set()): Encoded {
  if (v instanceof tf.Tensor) {
    if (v.isDisposed) return { t: "disposed-tensor", shape: [...v.shape], dtype: v.dtype };
    const raw = v.dataSync() as ArrayLike<number>;
    const data = v.dtype === "int32" ? Int32Array.from(raw) : v.dtype === "bool" ? Uint8Array.from(raw) : Float32Array.from(raw);
    return { t: "tensor", shape: [...v.shape], dtype: v.dtype, data };
  }
  if (v === undefined) return { t: "undefined" };
  if (v === null) return { t: "null" };
  if (typeof v === "number") return { t: "number", v };
  if (typeof v === "string") return { t: "string", v };
  if (typeof v === "boolean") return { t: "boolean", v };
  if (typeof v !== "object") return { t: "other", what: `a ${typeof v}` };
  if (v instanceof Promise) return { t: "promise" };
  // Their entries are not own keys: as an object they would encode as {} and equal anything empty.
  if (v instanceof Map) return { t: "other", what: `a Map of ${v.size} entries (return a plain object or an array)` };
  if (v instanceof Set) return { t: "other", what: `a Set of ${v.size} values (return an array)` };
  if (seen.has(v)) return { t: "other", what: "a cyclic structure (an object that contains itself)" };
  seen.add(v);
  try {
    if (Array.isArray(v)) return { t: "array", items: v.map((x) => encodeValue(x, seen)) };
    const keys = Object.keys(v);
    return { t: "object", keys, values: keys.map((k) => encodeValue((v as Record<string, unknown>)[k], seen)) };
  } finally {
    seen.delete(v);
  }
}

/** An encoded value back as a live one (tensors rebuilt). */
export function decodeValue(e: Encoded): unknown {
  switch (e.t) {
    case "tensor":
      return tf.tensor(Array.from(e.data as ArrayLike<number>), e.shape, e.dtype as tf.DataType);
    case "number":
    case "string":
    case "boolean":
      return e.v;
    case "null":
      return null;
    case "array":
      return e.items.map(decodeValue);
    case "object":
      return Object.fromEntries(e.keys.map((k, i) => [k, decodeValue(e.values[i])]));
    default:
      return undefined;
  }
}

/** null when `got` matches `expected` within `tol`; otherwise what differs. */
export function compareValues(got: unknown, expected: unknown, tol: Tolerance, order: readonly string[] = []): Mismatch | null {
  return compareEncoded(encodeValue(got), encodeValue(expected), tol, "", order);
}

/** A short description of any value, for "expected X, got Y". */
export function describe(v: unknown): string {
  try {
    return describeEncoded(encodeValue(v));
  } catch {
    return "a value that cannot be read";
  }
}

/** Every tensor inside a value (the value itself, array items, object fields), each once. Never throws. */
export function tensorsIn(v: unknown, out: Set<tf.Tensor> = new Set(), seen: Set<object> = new Set()): Set<tf.Tensor> {
  try {
    if (v instanceof tf.Tensor) out.add(v);
    else if (v !== null && typeof v === "object" && !(v instanceof Promise) && !seen.has(v)) {
      seen.add(v);
      (Array.isArray(v) ? v : Object.values(v)).forEach((x) => tensorsIn(x, out, seen));
    }
  } catch {
    // An unreadable value holds no tensor we can find.
  }
  return out;
}
