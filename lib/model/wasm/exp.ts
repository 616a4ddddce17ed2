/**
 * The WebAssembly build of eˣ for float32 (exp.as.ts, compiled by `npm run build-kernels` into
 * exp.wasm.ts), over the wasm backend's own memory (over-memory.ts). lib/wasm-kernels.ts makes it
 * the wasm backend's Exp: the log-softmax of the loss and its gradient each take eˣ of every logit
 * ([1008, 512] in the bench's step: 3.4 ms each with the backend's own, measured).
 */
import { EXP_WASM_BASE64 } from "./exp.wasm.js";
import { kernelsOverMemory } from "./over-memory.js";

/** The module's exports (pointers are byte offsets into the backend's memory). */
export interface CompiledExp {
  /** out[i] = e^x[i] for i < n, float32, correctly rounded but for eˣ within ~1e-14 of a rounding boundary. */
  exp(n: number, x: number, out: number): void;
}

/** The compiled eˣ over `memory`, or null where it cannot run (see kernelsOverMemory). */
export const compiledExp = kernelsOverMemory<CompiledExp>(EXP_WASM_BASE64);
