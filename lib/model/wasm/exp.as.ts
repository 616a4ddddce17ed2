// eˣ of float32 numbers in AssemblyScript, two float64 lanes at a time (WebAssembly SIMD), for the
// wasm backend's Exp kernel (lib/wasm-kernels.ts). Built by `npm run build-kernels` into
// exp.wasm.ts; tools/ci/kernels.sh rebuilds it in CI and fails if the committed module differs.
//
// Like the matrix product, the module imports the wasm backend's memory, has no data segment and
// allocates nothing. Each value is computed in float64 to about 1e-14 relative error and then
// rounded to float32 once, so the result is the correctly rounded float32 of eˣ except where eˣ
// lies within that error of a rounding boundary (the cpu backend rounds Math.exp the same way;
// test/wasm-kernels.test.ts counts how often they differ).

const LOG2E: f64 = 1.4426950408889634;
/** ln 2 in two parts (fdlibm's): n·LN2_HI is exact for |n| < 2¹¹, so r keeps its low bits. */
const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
/** 1.5·2⁵²: adding it rounds a float64 of magnitude below 2⁵¹ to an integer, which its low bits then hold. */
const SHIFTER: f64 = 6755399441055744.0;
/** Past these eˣ is 0 or +∞ in float32, and 2ⁿ still fits a float64's exponent. */
const LOWEST: f64 = -104.0;
const HIGHEST: f64 = 89.0;

/**
 * eˣ for both lanes: n = round(x·log₂e), r = x − n·ln 2 (|r| ≤ 0.35), eʳ by its Taylor series to
 * r¹¹/11! (the first term left out is below 7e-15 relative), times 2ⁿ built in the exponent bits.
 * The series is summed in Estrin's order, pairs of terms first and then by r², r⁴, r⁸: about six
 * dependent operations instead of Horner's twenty-two, which is what bounds a loop like this.
 * NaN stays NaN: the clamp keeps it, and p, then NaN, times any 2ⁿ is NaN. n is rounded by
 * adding SHIFTER, which leaves n in the low bits for 2ⁿ: cheaper than nearest and a conversion, as
 * pmin and pmax are than min and max (single instructions, where NaN-ordering min and max are not).
 */
// @ts-ignore: decorator
@inline function exp2Lanes(x: v128): v128 {
  x = f64x2.pmin(f64x2.pmax(x, f64x2.splat(LOWEST)), f64x2.splat(HIGHEST));
  const shifted = f64x2.add(f64x2.mul(x, f64x2.splat(LOG2E)), f64x2.splat(SHIFTER));
  const n = f64x2.sub(shifted, f64x2.splat(SHIFTER));
  const r = f64x2.sub(f64x2.sub(x, f64x2.mul(n, f64x2.splat(LN2_HI))), f64x2.mul(n, f64x2.splat(LN2_LO)));
  const r2 = f64x2.mul(r, r);
  const r4 = f64x2.mul(r2, r2);
  const r8 = f64x2.mul(r4, r4);
  // (c + d·r) for the terms c·rᵏ + d·rᵏ⁺¹, k = 0, 2, …, 10.
  const q0 = f64x2.add(f64x2.splat(1.0), r);
  const q1 = f64x2.add(f64x2.splat(1.0 / 2.0), f64x2.mul(f64x2.splat(1.0 / 6.0), r));
  const q2 = f64x2.add(f64x2.splat(1.0 / 24.0), f64x2.mul(f64x2.splat(1.0 / 120.0), r));
  const q3 = f64x2.add(f64x2.splat(1.0 / 720.0), f64x2.mul(f64x2.splat(1.0 / 5040.0), r));
  const q4 = f64x2.add(f64x2.splat(1.0 / 40320.0), f64x2.mul(f64x2.splat(1.0 / 362880.0), r));
  const q5 = f64x2.add(f64x2.splat(1.0 / 3628800.0), f64x2.mul(f64x2.splat(1.0 / 39916800.0), r));
  const s0 = f64x2.add(q0, f64x2.mul(q1, r2));
  const s1 = f64x2.add(q2, f64x2.mul(q3, r2));
  const s2 = f64x2.add(q4, f64x2.mul(q5, r2));
  const p = f64x2.add(f64x2.add(s0, f64x2.mul(s1, r4)), f64x2.mul(s2, r8));
  // 2ⁿ: (n + 1023) in the exponent field; |n| ≤ 151 here, so it is a normal float64. The shifted
  // sum's bits are SHIFTER's plus n, and SHIFTER's low 12 bits are zero.
  const twoN = i64x2.shl(i64x2.add(shifted, i64x2.splat(1023)), 52);
  return f64x2.mul(p, twoN);
}

/** out[i] = eˣ⁽ⁱ⁾ for i < n, float32 in and out (`x` and `out` may be the same array). */
export function exp(n: i32, x: usize, out: usize): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const at = <usize>i << 2;
    const v = v128.load(x + at);
    const low = f32x4.demote_f64x2_zero(exp2Lanes(f64x2.promote_low_f32x4(v)));
    const high = f32x4.demote_f64x2_zero(exp2Lanes(f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 0, 1))));
    v128.store(out + at, i32x4.shuffle(low, high, 0, 1, 4, 5));
  }
  for (; i < n; i++) {
    const at = <usize>i << 2;
    store<f32>(out + at, <f32>f64x2.extract_lane(exp2Lanes(f64x2.splat(<f64>load<f32>(x + at))), 0));
  }
}
