/**
 * IEEE 754 half precision (binary16) and float32, both ways: what safetensors' F16 and GGUF's f16
 * store. One sign bit, 5 exponent bits (bias 15), 10 mantissa bits; largest finite 65504.
 */

/**
 * IEEE half-precision bits of each float32, rounded to nearest even (what numpy's
 * `astype(float16)` gives); overflow becomes ±Inf, tiny values become subnormals or ±0.
 */
export function toFloat16Bits(data: Float32Array): Uint16Array {
  const out = new Uint16Array(data.length);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < data.length; i++) {
    f[0] = data[i];
    const x = u[0];
    const sign = (x >>> 16) & 0x8000;
    const exp = (x >>> 23) & 0xff;
    const mant = x & 0x7fffff;
    if (exp === 0xff) {
      out[i] = sign | 0x7c00 | (mant ? 0x200 : 0); // Inf or NaN
      continue;
    }
    const e = exp - 127 + 15;
    if (e >= 0x1f) {
      out[i] = sign | 0x7c00;
      continue;
    }
    if (e <= 0) {
      if (e < -10) {
        out[i] = sign;
        continue;
      }
      // Subnormal: shift the implicit-1 mantissa right, rounding to nearest even.
      const m = mant | 0x800000;
      const shift = 14 - e;
      const half = 1 << (shift - 1);
      const rest = m & ((1 << shift) - 1);
      let h = m >>> shift;
      if (rest > half || (rest === half && (h & 1))) h++;
      out[i] = sign | h;
      continue;
    }
    let h = (e << 10) | (mant >>> 13);
    const rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h++; // may carry into the exponent: still right
    out[i] = sign | h;
  }
  return out;
}

/** float32 of IEEE half-precision bits `h` (subnormals, ±Inf and NaN included; exact: every half is a float32). */
export function fromFloat16Bits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
