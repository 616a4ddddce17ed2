// A float32 matrix product in AssemblyScript, four lanes at a time (WebAssembly SIMD), for the
// wasm backend's 2-D and batched matMuls (lib/wasm-kernels.ts, through matmul.ts). Built by
// `npm run build-kernels` into matmul.wasm.ts; tools/ci/kernels.sh rebuilds it in CI and fails if
// the committed module differs.
//
// The module has no memory of its own: it imports the wasm backend's, so it reads the tensors and
// writes the product where they lie. It has no data segment either (nothing is written into the
// imported memory when it starts) and allocates nothing: the caller passes every pointer,
// including the scratch where the operands are packed.
//
// The method is the textbook one of BLIS and XNNPACK: copy ("pack") op(A) into panels of 4 rows and
// op(B) into panels of 8 columns, k-major, so that the inner loop reads both in order and the
// transposed layouts cost nothing beyond the copy; then each 4×8 tile of C is 8 float32x4
// accumulators updated once per k. Every C element is Σ_k a·b summed in order of k, in float32.

/** Rows of one A panel and columns of one B panel: a 4×8 tile, 8 v128 accumulators. */
const MR: i32 = 4;
const NR: i32 = 8;

/**
 * Rows i0 .. i0+4 of op(A) (M × K) into dst [K][4]; rows at or past M are zeros. A is stored
 * [M, K] row-major, or [K, M] when `transA` (then op(A) = Aᵀ of what is stored).
 */
// @ts-ignore: decorator
@inline function packA(a: usize, transA: bool, M: i32, K: i32, i0: i32, dst: usize): void {
  const rows = min(MR, M - i0);
  if (transA) {
    // op(A)[i, k] = stored[k, i]: the 4 values of one k lie side by side.
    let src = a + (<usize>i0 << 2);
    const step = <usize>M << 2;
    if (rows == MR) {
      for (let k = 0; k < K; k++, src += step, dst += 16) v128.store(dst, v128.load(src));
      return;
    }
    for (let k = 0; k < K; k++, src += step, dst += 16) {
      v128.store(dst, f32x4.splat(0));
      for (let r = 0; r < rows; r++) store<f32>(dst + (<usize>r << 2), load<f32>(src + (<usize>r << 2)));
    }
    return;
  }
  // op(A)[i, k] = stored[i, k]: one row at a time, written every 16 bytes.
  if (rows < MR) memory.fill(dst, 0, <usize>K << 4);
  for (let r = 0; r < rows; r++) {
    let src = a + (<usize>(i0 + r) * <usize>K << 2);
    let to = dst + (<usize>r << 2);
    for (let k = 0; k < K; k++, src += 4, to += 16) store<f32>(to, load<f32>(src));
  }
}

/**
 * Columns j0 .. j0+8 of op(B) (K × N) into dst [K][8]; columns at or past N are zeros. B is stored
 * [K, N] row-major, or [N, K] when `transB`.
 */
// @ts-ignore: decorator
@inline function packB(b: usize, transB: bool, N: i32, K: i32, j0: i32, dst: usize): void {
  const cols = min(NR, N - j0);
  if (!transB) {
    // op(B)[k, j] = stored[k, j]: 8 values of one k lie side by side.
    let src = b + (<usize>j0 << 2);
    const step = <usize>N << 2;
    if (cols == NR) {
      for (let k = 0; k < K; k++, src += step, dst += 32) {
        v128.store(dst, v128.load(src));
        v128.store(dst, v128.load(src, 16), 16);
      }
      return;
    }
    for (let k = 0; k < K; k++, src += step, dst += 32) {
      v128.store(dst, f32x4.splat(0));
      v128.store(dst, f32x4.splat(0), 16);
      for (let c = 0; c < cols; c++) store<f32>(dst + (<usize>c << 2), load<f32>(src + (<usize>c << 2)));
    }
    return;
  }
  // op(B)[k, j] = stored[j, k]: one stored row at a time, written every 32 bytes.
  if (cols < NR) memory.fill(dst, 0, <usize>K << 5);
  for (let c = 0; c < cols; c++) {
    let src = b + (<usize>(j0 + c) * <usize>K << 2);
    let to = dst + (<usize>c << 2);
    for (let k = 0; k < K; k++, src += 4, to += 32) store<f32>(to, load<f32>(src));
  }
}

/**
 * The 4×8 tile of C at (i0, j0) = Σ_k Ap[k]ᵀ·Bp[k], from an A panel [K][4] and a B panel [K][8].
 * A full tile is stored straight into C (row stride N); a tile at the edge keeps only its rows < M
 * and columns < N.
 */
// @ts-ignore: decorator
@inline function tile(pa: usize, pb: usize, K: i32, c: usize, M: i32, N: i32, i0: i32, j0: i32, edge: usize): void {
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0);
  let c10 = f32x4.splat(0), c11 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0);
  let c30 = f32x4.splat(0), c31 = f32x4.splat(0);
  for (let k = 0; k < K; k++, pa += 16, pb += 32) {
    const b0 = v128.load(pb);
    const b1 = v128.load(pb, 16);
    const a0 = v128.load32_splat(pa);
    c00 = f32x4.add(c00, f32x4.mul(a0, b0));
    c01 = f32x4.add(c01, f32x4.mul(a0, b1));
    const a1 = v128.load32_splat(pa, 4);
    c10 = f32x4.add(c10, f32x4.mul(a1, b0));
    c11 = f32x4.add(c11, f32x4.mul(a1, b1));
    const a2 = v128.load32_splat(pa, 8);
    c20 = f32x4.add(c20, f32x4.mul(a2, b0));
    c21 = f32x4.add(c21, f32x4.mul(a2, b1));
    const a3 = v128.load32_splat(pa, 12);
    c30 = f32x4.add(c30, f32x4.mul(a3, b0));
    c31 = f32x4.add(c31, f32x4.mul(a3, b1));
  }
  const rowBytes = <usize>N << 2;
  let out = c + (<usize>i0 * <usize>N + <usize>j0 << 2);
  if (i0 + MR <= M && j0 + NR <= N) {
    v128.store(out, c00);
    v128.store(out, c01, 16);
    out += rowBytes;
    v128.store(out, c10);
    v128.store(out, c11, 16);
    out += rowBytes;
    v128.store(out, c20);
    v128.store(out, c21, 16);
    out += rowBytes;
    v128.store(out, c30);
    v128.store(out, c31, 16);
    return;
  }
  // The edge: lay the tile out in `edge` (128 bytes) and copy what fits.
  const t = edge;
  v128.store(t, c00); v128.store(t, c01, 16);
  v128.store(t, c10, 32); v128.store(t, c11, 48);
  v128.store(t, c20, 64); v128.store(t, c21, 80);
  v128.store(t, c30, 96); v128.store(t, c31, 112);
  const rows = min(MR, M - i0);
  const cols = min(NR, N - j0);
  for (let r = 0; r < rows; r++, out += rowBytes)
    for (let j = 0; j < cols; j++) store<f32>(out + (<usize>j << 2), load<f32>(t + (<usize>(r * NR + j) << 2)));
}

/**
 * Bytes of scratch `matmul` needs for M × K times K × N: every A panel, one B panel, and room for
 * an edge tile.
 */
export function scratchBytes(M: i32, N: i32, K: i32): usize {
  const panels = <usize>((M + MR - 1) / MR);
  return panels * (<usize>K << 4) + (<usize>K << 5) + 128;
}

/**
 * C (M × N, row-major at `c`) = op(A)·op(B), op(A) M × K, op(B) K × N (see packA and packB for the
 * stored layouts). `scratch` holds scratchBytes(M, N, K) bytes, 16-byte aligned.
 */
export function matmul(M: i32, N: i32, K: i32, a: usize, transA: bool, b: usize, transB: bool, c: usize, scratch: usize): void {
  const panelBytes = <usize>K << 4;
  const panels = (M + MR - 1) / MR;
  for (let p = 0; p < panels; p++) packA(a, transA, M, K, p * MR, scratch + <usize>p * panelBytes);
  const bPanel = scratch + <usize>panels * panelBytes;
  const edge = bPanel + (<usize>K << 5);
  // One B panel (K × 8, at most 32 KB for K ≤ 1024) stays in L1 while every A panel passes it.
  for (let j0 = 0; j0 < N; j0 += NR) {
    packB(b, transB, N, K, j0, bPanel);
    for (let p = 0; p < panels; p++) tile(scratch + <usize>p * panelBytes, bPanel, K, c, M, N, p * MR, j0, edge);
  }
}
