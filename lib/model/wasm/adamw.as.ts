// One AdamW step over float32 arrays in AssemblyScript, two float64 lanes at a time (WebAssembly
// SIMD), for lib/model/train.ts's AdamW on the wasm backend. Built by `npm run build-kernels` into
// adamw.wasm.ts; tools/ci/kernels.sh rebuilds it in CI and fails if the committed module differs.
//
// Like the matrix product, the module imports the wasm backend's memory, has no data segment and
// allocates nothing. The arithmetic is the JavaScript loop's, operation for operation, in float64
// with each array element rounded to float32 where it is stored: every IEEE operation gives the
// same bits in a SIMD lane as in a scalar, so the results are identical to that loop's.

/**
 * For j < n: p ← p·decay; m ← β₁m + (1 − β₁)g; v ← β₂v + (1 − β₂)g·g;
 * p ← p − (stepSize·m) / (√v / bc2Sqrt + ε), with stepSize = lr / (1 − β₁ᵗ) and
 * bc2Sqrt = √(1 − β₂ᵗ); p, m, v updated in place, g read.
 */
export function adamw(n: i32, p: usize, g: usize, m: usize, v: usize, decay: f64, beta1: f64, beta2: f64, stepSize: f64, bc2Sqrt: f64, eps: f64): void {
  const d = f64x2.splat(decay);
  const b1 = f64x2.splat(beta1);
  const b2 = f64x2.splat(beta2);
  const s = f64x2.splat(stepSize);
  const c = f64x2.splat(bc2Sqrt);
  const e = f64x2.splat(eps);
  const b1c = f64x2.splat(1 - beta1);
  const b2c = f64x2.splat(1 - beta2);
  let j = 0;
  for (; j + 2 <= n; j += 2) {
    const at = <usize>j << 2;
    // Two float32 values widened to float64, and each result rounded back to float32 as a store would.
    const p1 = f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(f64x2.mul(f64x2.promote_low_f32x4(v128.load64_zero(p + at)), d)));
    const gj = f64x2.promote_low_f32x4(v128.load64_zero(g + at));
    const m1 = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(b1, f64x2.promote_low_f32x4(v128.load64_zero(m + at))), f64x2.mul(b1c, gj)));
    const v1 = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(b2, f64x2.promote_low_f32x4(v128.load64_zero(v + at))), f64x2.mul(f64x2.mul(b2c, gj), gj)));
    const step = f64x2.div(f64x2.mul(s, f64x2.promote_low_f32x4(m1)), f64x2.add(f64x2.div(f64x2.sqrt(f64x2.promote_low_f32x4(v1)), c), e));
    v128.store64_lane(m + at, m1, 0);
    v128.store64_lane(v + at, v1, 0);
    v128.store64_lane(p + at, f32x4.demote_f64x2_zero(f64x2.sub(p1, step)), 0);
  }
  for (; j < n; j++) {
    const at = <usize>j << 2;
    const p1 = <f64>(<f32>(<f64>load<f32>(p + at) * decay));
    const gj = <f64>load<f32>(g + at);
    const m1 = <f32>(beta1 * <f64>load<f32>(m + at) + (1 - beta1) * gj);
    const v1 = <f32>(beta2 * <f64>load<f32>(v + at) + (1 - beta2) * gj * gj);
    store<f32>(m + at, m1);
    store<f32>(v + at, v1);
    store<f32>(p + at, <f32>(p1 - (stepSize * <f64>m1) / (Math.sqrt(<f64>v1) / bc2Sqrt + eps)));
  }
}
