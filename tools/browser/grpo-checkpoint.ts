/**
 * The GRPO page's start model as a half-precision safetensors file: the same layout as
 * lib/model/safetensors.ts writes (an 8-byte little-endian header length, the JSON header padded
 * with spaces to a multiple of 8, the tensors' bytes), with every tensor stored as F16 (lib/serve/
 * gguf-writer.ts's rounding), which halves the committed file. The worker decodes it back to
 * float32, so the page trains the very values the file holds.
 *
 * Align with: lib/model/safetensors.ts (encodeSafetensors / decodeSafetensors: the header and offsets).
 */
import type { StoredTensor } from "../../lib/model/safetensors.js";
import { toFloat16Bits } from "../../lib/serve/gguf-writer.js";

/** The bytes of a safetensors file holding `tensors` as F16, in their insertion order; `metadata` as the format has it (string → string). */
export function encodeHalfSafetensors(tensors: Record<string, StoredTensor>, metadata: Record<string, string>): Uint8Array {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error("writing F16 safetensors needs a little-endian machine");
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: "F16", shape: t.shape, data_offsets: [offset, offset + 2 * t.data.length] };
    offset += 2 * t.data.length;
  }
  let json = JSON.stringify(header);
  const encoder = new TextEncoder();
  json += " ".repeat((8 - (encoder.encode(json).length % 8)) % 8);
  const headerBytes = encoder.encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const t of Object.values(tensors)) {
    const half = toFloat16Bits(t.data);
    out.set(new Uint8Array(half.buffer), at);
    at += half.byteLength;
  }
  return out;
}

/** float32 of IEEE half-precision bits (subnormals, ±Inf and NaN included). */
function fromFloat16Bits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** The tensors (as float32) and metadata of an F16 safetensors file; any other dtype is an error that names it. */
export function decodeHalfSafetensors(bytes: Uint8Array): { tensors: Record<string, StoredTensor>; metadata: Record<string, string> } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (8 + headerLength > bytes.length) throw new Error(`not a safetensors file: header length ${headerLength} exceeds the file (${bytes.length} bytes)`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
  const dataStart = 8 + headerLength;
  const tensors: Record<string, StoredTensor> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    const { dtype, shape, data_offsets: [begin, end] } = entry as { dtype: string; shape: number[]; data_offsets: [number, number] };
    if (dtype !== "F16") throw new Error(`${name} is ${dtype}: the start model stores F16 tensors`);
    const data = new Float32Array((end - begin) / 2);
    for (let i = 0; i < data.length; i++) data[i] = fromFloat16Bits(view.getUint16(dataStart + begin + 2 * i, true));
    tensors[name] = { shape, data };
  }
  return { tensors, metadata: (header.__metadata__ ?? {}) as Record<string, string> };
}
