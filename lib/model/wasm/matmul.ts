/**
 * The WebAssembly build of the float32 matrix product (matmul.as.ts, compiled by
 * `npm run build-kernels` into matmul.wasm.ts), over the wasm backend's own memory
 * (over-memory.ts). lib/wasm-kernels.ts makes it the wasm backend's BatchMatMul. Measured at the
 * tiny model's sizes (one [1024, 128]·[128, 448] product on one core): 2.5 ms, against 3.3 ms for
 * the backend's XNNPACK product without transposes and 40–140 ms with one; `npm run bench` has
 * the training step.
 */
import { MATMUL_WASM_BASE64 } from "./matmul.wasm.js";
import { kernelsOverMemory } from "./over-memory.js";

/** The module's exports (pointers are byte offsets into the backend's memory). */
export interface CompiledMatMul {
  /** Bytes of scratch `matmul` needs for an M × K times K × N product. */
  scratchBytes(M: number, N: number, K: number): number;
  /**
   * C [M, N] = op(A)·op(B) with op(A) M × K, op(B) K × N: A stored [M, K] (or [K, M] when
   * `transA`), B stored [K, N] (or [N, K] when `transB`), all float32 row-major; `scratch` is
   * scratchBytes(M, N, K) bytes, 16-byte aligned. Each C element sums over k in order, in float32.
   */
  matmul(M: number, N: number, K: number, a: number, transA: boolean, b: number, transB: boolean, c: number, scratch: number): void;
}

/** The compiled product over `memory`, or null where it cannot run (see kernelsOverMemory). */
export const compiledMatMul = kernelsOverMemory<CompiledMatMul>(MATMUL_WASM_BASE64);
