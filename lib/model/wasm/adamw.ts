/**
 * The WebAssembly build of one AdamW step (adamw.as.ts, compiled by `npm run build-kernels` into
 * adamw.wasm.ts), over the wasm backend's own memory (over-memory.ts): lib/model/train.ts's AdamW
 * uses it for a variable whose numbers it may update where they lie. Its results are the
 * JavaScript loop's, bit for bit (test/variable-memory.test.ts).
 */
import { ADAMW_WASM_BASE64 } from "./adamw.wasm.js";
import { kernelsOverMemory } from "./over-memory.js";

/** The module's exports (pointers are byte offsets into the backend's memory). */
export interface CompiledAdamW {
  /**
   * For j < n, float32 arrays p, g, m, v: p ← p·decay; m ← β₁m + (1 − β₁)g; v ← β₂v + (1 − β₂)g·g;
   * p ← p − (stepSize·m) / (√v / bc2Sqrt + ε), in float64 with each stored value rounded to float32.
   */
  adamw(n: number, p: number, g: number, m: number, v: number, decay: number, beta1: number, beta2: number, stepSize: number, bc2Sqrt: number, eps: number): void;
}

/** The compiled AdamW step over `memory`, or null where it cannot run (see kernelsOverMemory). */
export const compiledAdamW = kernelsOverMemory<CompiledAdamW>(ADAMW_WASM_BASE64);
