// The attention core of lib/model/fast-attention-kernel.ts in AssemblyScript, four lanes at a time
// (WebAssembly SIMD): the same loops as that file's forwardValues / backwardValues, on pointers
// into this module's memory. Built by `npm run build-kernels` into attention-core.wasm.ts;
// tools/ci/kernels.sh rebuilds it in CI and fails if the committed module differs.
//
// Layout (float32, row-major): q [B, S, Hq, D]; k, v [B, T, Hkv, D]; keep [B, T] (1 kept, 0 padded;
// pointer 0 for none); probs [B, Hq, S, T]. D must be a multiple of 4. Sums are float32 (the JS
// kernel's are float64): values agree to float32 rounding, as test/fast-attention-kernel.test.ts checks.

/** Where the caller may place its arrays: past this module's own static data. */
export function heapBase(): usize {
  return __heap_base;
}

/** a[0 .. D) · b[0 .. D). */
// @ts-ignore: decorator
@inline function dot(a: usize, b: usize, D: i32): f32 {
  let acc = f32x4.splat(0);
  for (let d = 0; d < D; d += 4) {
    const at = <usize>d << 2;
    acc = f32x4.add(acc, f32x4.mul(v128.load(a + at), v128.load(b + at)));
  }
  return f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3);
}

/**
 * out[0 .. D) (+)= Σ_j w[j·wStep] · m[j·mStep .. j·mStep + D) over `count` rows; `add` keeps what
 * out held, else it starts from zero.
 */
// @ts-ignore: decorator
@inline function weightedRows(out: usize, add: bool, w: usize, wStep: i32, m: usize, mStep: i32, count: i32, D: i32): void {
  const wBytes = <usize>wStep << 2;
  const mBytes = <usize>mStep << 2;
  for (let d = 0; d < D; d += 4) {
    const at = <usize>d << 2;
    let acc = add ? v128.load(out + at) : f32x4.splat(0);
    let wj = w;
    let mj = m + at;
    for (let j = 0; j < count; j++) {
      acc = f32x4.add(acc, f32x4.mul(f32x4.splat(load<f32>(wj)), v128.load(mj)));
      wj += wBytes;
      mj += mBytes;
    }
    v128.store(out + at, acc);
  }
}

/** Byte offset of row (b, i, h) of a [B, rows, heads, D] array. */
// @ts-ignore: decorator
@inline function row(b: i32, i: i32, h: i32, rows: i32, heads: i32, D: i32): usize {
  return <usize>(((b * rows + i) * heads + h) * D) << 2;
}

/** o = softmax(q·kᵀ/√D + masks)·v into `out` [B, S, Hq, D]; p into `probs`. `scores`: T float64 of scratch. */
export function forward(B: i32, S: i32, T: i32, Hq: i32, Hkv: i32, D: i32, q: usize, k: usize, v: usize, keep: usize, out: usize, probs: usize, scores: usize): void {
  const P = T - S;
  const nRep = Hq / Hkv;
  const scale = 1.0 / Math.sqrt(<f64>D);
  const kStep = Hkv * D;
  const kBytes = <usize>kStep << 2;
  for (let b = 0; b < B; b++)
    for (let h = 0; h < Hq; h++) {
      const first = row(b, 0, h / nRep, T, Hkv, D);
      for (let i = 0; i < S; i++) {
        const qi = row(b, i, h, S, Hq, D);
        const pRow = probs + (<usize>(((b * Hq + h) * S + i) * T) << 2);
        const limit = P + i + 1; // keys j ≤ P + i
        let max = -Infinity;
        let kj = k + first;
        for (let j = 0; j < limit; j++) {
          let s = <f64>dot(q + qi, kj, D) * scale;
          if (keep != 0 && load<f32>(keep + (<usize>(b * T + j) << 2)) == 0) s -= 1e9;
          store<f64>(scores + (<usize>j << 3), s);
          if (s > max) max = s;
          kj += kBytes;
        }
        let sum = 0.0;
        for (let j = 0; j < limit; j++) {
          const e = Math.exp(load<f64>(scores + (<usize>j << 3)) - max);
          store<f64>(scores + (<usize>j << 3), e);
          sum += e;
        }
        for (let j = 0; j < limit; j++) store<f32>(pRow + (<usize>j << 2), <f32>(load<f64>(scores + (<usize>j << 3)) / sum));
        weightedRows(out + qi, false, pRow, 1, v + first, kStep, limit, D);
      }
    }
}

/**
 * ∂q, ∂k, ∂v of the core from ∂o (`dOut`, like q) and the forward's p. `dk`, `dv` must be zero on
 * entry (they sum over the query heads of a kv head). Scratch: `dScores` S·T float32, `dp` T float32.
 */
export function backward(B: i32, S: i32, T: i32, Hq: i32, Hkv: i32, D: i32, q: usize, k: usize, v: usize, probs: usize, dOut: usize, dq: usize, dk: usize, dv: usize, dScores: usize, dp: usize): void {
  const P = T - S;
  const nRep = Hq / Hkv;
  const scale = 1.0 / Math.sqrt(<f64>D);
  const kStep = Hkv * D;
  const qStep = Hq * D;
  const kBytes = <usize>kStep << 2;
  for (let b = 0; b < B; b++)
    for (let g = 0; g < Hkv; g++) {
      const first = row(b, 0, g, T, Hkv, D);
      for (let h = g * nRep; h < (g + 1) * nRep; h++) {
        const pHead = probs + (<usize>((b * Hq + h) * S * T) << 2);
        memory.fill(dScores, 0, <usize>(S * T) << 2);
        // ∂s row by row, then ∂q_i = Σ_j ∂s_ij k_j.
        for (let i = 0; i < S; i++) {
          const qi = row(b, i, h, S, Hq, D);
          const limit = P + i + 1;
          const pRow = pHead + (<usize>(i * T) << 2);
          const sRow = dScores + (<usize>(i * T) << 2);
          let vj = v + first;
          let weighted = 0.0;
          for (let j = 0; j < limit; j++) {
            const dpj = dot(dOut + qi, vj, D);
            store<f32>(dp + (<usize>j << 2), dpj);
            weighted += <f64>load<f32>(pRow + (<usize>j << 2)) * <f64>dpj;
            vj += kBytes;
          }
          for (let j = 0; j < limit; j++) {
            const at = <usize>j << 2;
            store<f32>(sRow + at, <f32>(<f64>load<f32>(pRow + at) * (<f64>load<f32>(dp + at) - weighted) * scale));
          }
          weightedRows(dq + qi, false, sRow, 1, k + first, kStep, limit, D);
        }
        // ∂k_j = Σ_i ∂s_ij q_i and ∂v_j = Σ_i p_ij ∂o_i over the queries that see key j (i ≥ j − P).
        const firstQ = row(b, 0, h, S, Hq, D);
        for (let j = 0; j < T; j++) {
          const from = max(0, j - P);
          const kj = row(b, j, g, T, Hkv, D);
          const qFrom = firstQ + (<usize>(from * qStep) << 2);
          const at = <usize>(from * T + j) << 2;
          weightedRows(dk + kj, true, dScores + at, T, q + qFrom, qStep, S - from, D);
          weightedRows(dv + kj, true, pHead + at, T, dOut + qFrom, qStep, S - from, D);
        }
      }
    }
}
