/**
 * The WebAssembly build of the float32 matrix product (matmul.as.ts, compiled by
 * `npm run build-kernels` into matmul.wasm.ts), instantiated over the wasm backend's own memory so
 * that it reads its operands and writes the product where the tensors lie: no copy in or out.
 * lib/wasm-kernels.ts makes it the wasm backend's BatchMatMul. Measured at the tiny model's sizes
 * (one matMul of [1024, 128]·[128, 448] on one core): 2.5 ms against 3.3 ms for the backend's
 * XNNPACK product without transposes and 40–140 ms with one; `npm run bench` has the step.
 */
import { MATMUL_WASM_BASE64 } from "./matmul.wasm.js";

/** The module's exports (pointers are byte offsets into the shared memory). */
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

let compiled: WebAssembly.Module | null | undefined;
const instances = new WeakMap<WebAssembly.Memory, CompiledMatMul | null>();

function compile(): WebAssembly.Module | null {
  try {
    return new WebAssembly.Module(Uint8Array.from(atob(MATMUL_WASM_BASE64), (c) => c.charCodeAt(0)));
  } catch {
    return null; // a WebAssembly without SIMD
  }
}

/**
 * The compiled product working in `memory`, or null where it cannot: a WebAssembly without SIMD,
 * or a memory it cannot import (the threaded backend's shared memory).
 */
export function compiledMatMul(memory: WebAssembly.Memory | undefined): CompiledMatMul | null {
  if (memory === undefined) return null;
  if (compiled === undefined) compiled = compile();
  if (compiled === null) return null;
  let instance = instances.get(memory);
  if (instance === undefined) {
    try {
      instance = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as CompiledMatMul;
    } catch {
      instance = null;
    }
    instances.set(memory, instance);
  }
  return instance;
}
