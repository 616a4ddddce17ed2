/**
 * The GGUF file format (version 3), written out by hand: what llama.cpp, Ollama and LM Studio read.
 *
 * Layout (little-endian): "GGUF", version u32, tensor count u64, metadata count u64; each metadata
 * entry as key string, value type u32, value; each tensor's info as name string, number of
 * dimensions u32, dimensions u64 (innermost first: a PyTorch weight [out, in] is [in, out] here),
 * type u32, offset u64 into the data section; padding to the alignment (32); the tensor data, each
 * tensor starting at a multiple of the alignment. A string is a u64 byte length and its UTF-8.
 * Reference: ggml's docs/gguf.md and gguf-py/gguf/gguf_writer.py.
 */
import { writeFileSync } from "node:fs";
import { toFloat16Bits } from "../model/float16.js";

/** A metadata value with its GGUF type; arrays hold one element type. */
export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "i32[]"; value: readonly number[] };

/** A tensor to store: `shape` in PyTorch order (outermost first), values row-major. */
export interface GgufTensor {
  name: string;
  shape: readonly number[];
  data: Float32Array;
  /** Stored as float32 or float16 (ggml types 0 and 1). */
  dtype: "f32" | "f16";
}

const ALIGNMENT = 32;
const VALUE_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const TENSOR_TYPE = { f32: 0, f16: 1 } as const;

/** Grows a byte buffer as values are appended. */
class ByteSink {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u32(v: number): void {
    this.room(4);
    this.length = this.buf.writeUInt32LE(v, this.length);
  }

  i32(v: number): void {
    this.room(4);
    this.length = this.buf.writeInt32LE(v, this.length);
  }

  u64(v: number): void {
    this.room(8);
    this.length = this.buf.writeBigUInt64LE(BigInt(v), this.length);
  }

  f32(v: number): void {
    this.room(4);
    this.length = this.buf.writeFloatLE(v, this.length);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  string(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(pad));
  }

  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

function writeValue(out: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case "u32":
    case "i32":
    case "f32":
      out.u32(VALUE_TYPE[v.type]);
      out[v.type](v.value);
      return;
    case "bool":
      out.u32(VALUE_TYPE.bool);
      out.bytes(new Uint8Array([v.value ? 1 : 0]));
      return;
    case "string":
      out.u32(VALUE_TYPE.string);
      out.string(v.value);
      return;
    case "string[]":
      out.u32(VALUE_TYPE.array);
      out.u32(VALUE_TYPE.string);
      out.u64(v.value.length);
      for (const s of v.value) out.string(s);
      return;
    case "i32[]":
      out.u32(VALUE_TYPE.array);
      out.u32(VALUE_TYPE.i32);
      out.u64(v.value.length);
      for (const n of v.value) out.i32(n);
      return;
  }
}

function tensorBytes(t: GgufTensor): Uint8Array {
  const expected = t.shape.reduce((p, d) => p * d, 1);
  if (expected !== t.data.length) throw new Error(`${t.name}: shape [${t.shape}] needs ${expected} values, got ${t.data.length}`);
  const typed = t.dtype === "f16" ? toFloat16Bits(t.data) : t.data;
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  // Buffer's LE writers above fix the header; the data is copied as is, so refuse a big-endian host.
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error("GGUF export needs a little-endian machine");
  return bytes;
}

/** The bytes of a GGUF v3 file with `metadata` (in insertion order) and `tensors`. */
export function encodeGguf(metadata: ReadonlyArray<readonly [string, GgufValue]>, tensors: readonly GgufTensor[]): Buffer {
  const out = new ByteSink();
  out.bytes(Buffer.from("GGUF", "ascii"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  const payloads = tensors.map(tensorBytes);
  let offset = 0;
  tensors.forEach((t, i) => {
    out.string(t.name);
    out.u32(t.shape.length);
    for (const d of [...t.shape].reverse()) out.u64(d);
    out.u32(TENSOR_TYPE[t.dtype]);
    out.u64(offset);
    offset += payloads[i].length;
    offset += (ALIGNMENT - (offset % ALIGNMENT)) % ALIGNMENT;
  });
  out.padTo(ALIGNMENT);
  for (const p of payloads) {
    out.bytes(p);
    out.padTo(ALIGNMENT);
  }
  return out.result();
}

/** Writes `encodeGguf(metadata, tensors)` to `path`. */
export function saveGguf(path: string, metadata: ReadonlyArray<readonly [string, GgufValue]>, tensors: readonly GgufTensor[]): void {
  writeFileSync(path, encodeGguf(metadata, tensors));
}
