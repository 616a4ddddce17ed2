/**
 * The part of Node's `Buffer` that the grader's modules use at run time in the browser (injected
 * into tools/browser/'s bundles): bytes from base64 text (frozen expectations, frozen.ts's reviver)
 * a byte view of an ArrayBuffer (encoded.ts's hashing) and a text's UTF-8 length. A Uint8Array stands in for a Buffer.
 */
function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export const Buffer = {
  /** Bytes of base64 (or UTF-8) text, or a view of an ArrayBuffer or typed array's bytes. */
  from(value: string | ArrayBuffer | ArrayBufferView, encodingOrOffset?: string | number, length?: number): Uint8Array {
    if (typeof value === "string") return encodingOrOffset === "base64" ? fromBase64(value) : new TextEncoder().encode(value);
    if (value instanceof ArrayBuffer) return new Uint8Array(value, typeof encodingOrOffset === "number" ? encodingOrOffset : 0, length);
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  },
  isBuffer(v: unknown): boolean {
    return v instanceof Uint8Array;
  },
  /** The UTF-8 length of `text` (labs/lesson-7/data.ts reports the corpus's size). */
  byteLength(text: string): number {
    return new TextEncoder().encode(text).length;
  },
};
