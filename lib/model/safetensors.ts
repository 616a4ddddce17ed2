/**
 * The safetensors format, written out by hand: an 8-byte little-endian header length N, N bytes
 * of JSON (`{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {…}}`, padded
 * with spaces to a multiple of 8), then the raw little-endian tensor bytes. Python's
 * `safetensors.torch.load_file` and every Hugging Face tool read what this writes. Tensors are
 * written as F32 (what the course trains in) or, on request, F16 (half the bytes: the GRPO page's
 * shipped start model); both are read back as float32. Encoding and decoding use no Node API, so
 * the browser pages read the same files.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { fromFloat16Bits, toFloat16Bits } from "./float16.js";

/** A tensor as the course holds it: float32 values (an F16 file's are widened on reading). */
export interface StoredTensor {
  shape: number[];
  data: Float32Array;
}

export interface SafetensorsFile {
  tensors: Record<string, StoredTensor>;
  /** String → string, as the format requires. */
  metadata: Record<string, string>;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function toLittleEndianBytes(data: Float32Array): Uint8Array {
  const bytes = new Uint8Array(data.byteLength);
  if (littleEndian) {
    bytes.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  } else {
    const view = new DataView(bytes.buffer);
    data.forEach((v, i) => view.setFloat32(i * 4, v, true));
  }
  return bytes;
}

/** How encodeSafetensors stores each tensor: F32 (default, exact) or F16 (rounded to nearest even, float16.ts). */
export type StoredDtype = "F32" | "F16";

const BYTES: Record<StoredDtype, number> = { F32: 4, F16: 2 };

/** The bytes of a safetensors file holding `file.tensors` in their insertion order, every tensor as `dtype`. */
export function encodeSafetensors(file: SafetensorsFile, dtype: StoredDtype = "F32"): Uint8Array {
  const header: Record<string, HeaderEntry | Record<string, string>> = {};
  if (Object.keys(file.metadata).length > 0) header.__metadata__ = file.metadata;
  let offset = 0;
  for (const [name, t] of Object.entries(file.tensors)) {
    const size = t.shape.reduce((p, d) => p * d, 1);
    if (size !== t.data.length) throw new Error(`${name}: shape [${t.shape}] holds ${size} values, data has ${t.data.length}`);
    header[name] = { dtype, shape: t.shape, data_offsets: [offset, offset + BYTES[dtype] * size] };
    offset += BYTES[dtype] * size;
  }
  const encoder = new TextEncoder();
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (encoder.encode(json).length % 8)) % 8);
  const headerBytes = encoder.encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const t of Object.values(file.tensors)) {
    if (dtype === "F32") out.set(toLittleEndianBytes(t.data), at);
    else toFloat16Bits(t.data).forEach((h, i) => view.setUint16(at + 2 * i, h, true));
    at += BYTES[dtype] * t.data.length;
  }
  return out;
}

/** Parses safetensors bytes: F32 and F16 tensors, as float32 (any other dtype is an error that names it). */
export function decodeSafetensors(bytes: Uint8Array): SafetensorsFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (8 + headerLength > bytes.length) throw new Error(`not a safetensors file: header length ${headerLength} exceeds the file (${bytes.length} bytes)`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
  const dataStart = 8 + headerLength;
  const tensors: Record<string, StoredTensor> = {};
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__") {
      metadata = entry as Record<string, string>;
      continue;
    }
    const { dtype, shape, data_offsets: [begin, end] } = entry as HeaderEntry;
    if (dtype !== "F32" && dtype !== "F16") throw new Error(`${name} is ${dtype}: only F32 and F16 tensors are supported`);
    const data = new Float32Array((end - begin) / BYTES[dtype]);
    if (dtype === "F32") for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(dataStart + begin + i * 4, true);
    else for (let i = 0; i < data.length; i++) data[i] = fromFloat16Bits(view.getUint16(dataStart + begin + i * 2, true));
    tensors[name] = { shape, data };
  }
  return { tensors, metadata };
}

/** Writes `file` to `path` atomically (a temporary file, then a rename). */
export function saveSafetensors(path: string, file: SafetensorsFile): void {
  writeFileSync(`${path}.tmp`, encodeSafetensors(file));
  renameSync(`${path}.tmp`, path);
}

export function loadSafetensors(path: string): SafetensorsFile {
  return decodeSafetensors(readFileSync(path));
}
