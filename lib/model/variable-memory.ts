/**
 * Updating a variable's numbers where they lie, for the optimiser: on the wasm backend a
 * variable's float32 values are a stretch of the module's own memory, and AdamW can read and write
 * them there instead of copying them out, building a new tensor and assigning it (three copies, a
 * malloc and a free per variable per step: 12.3 → 2.7 ms a step for the tiny model's 0.5 M
 * parameters, `npm run bench`).
 *
 * Only when the variable is the sole owner of its memory (reference count 1 in the backend):
 * a tensor that shares it (a reshape of the weight kept somewhere) would see the write, so then,
 * and on every other backend, the values are copied out, updated and assigned as before. The
 * arithmetic is the same either way, so the numbers are identical.
 */
import * as tf from "../tf.js";

/** The part of tfjs-backend-wasm 4.22's BackendWasm that locates a tensor's numbers. */
interface WasmMemory {
  wasm: { HEAPU8: Uint8Array };
  getMemoryOffset(dataId: object): number;
  refCount(dataId: object): number;
}

/** A float32 view of `variable`'s own memory on the wasm backend, or null where there is none to share safely. */
function ownMemory(variable: tf.Variable): Float32Array | null {
  if (tf.getBackend() !== "wasm" || variable.dtype !== "float32") return null;
  const backend = tf.backend() as unknown as WasmMemory;
  if (backend.refCount(variable.dataId) !== 1) return null;
  return new Float32Array(backend.wasm.HEAPU8.buffer, backend.getMemoryOffset(variable.dataId), variable.size);
}

/**
 * Calls `update(values)` with `variable`'s values (float32, row-major, `variable.size` long) and
 * makes what it leaves there the variable's new value. `update` must not run tensor ops (on wasm a
 * growing heap would move the view it holds).
 */
export function updateVariable(variable: tf.Variable, update: (values: Float32Array) => void): void {
  const own = ownMemory(variable);
  if (own !== null) {
    update(own);
    return;
  }
  const values = Float32Array.from(variable.dataSync() as Float32Array);
  update(values);
  const updated = tf.tensor(values, variable.shape, "float32");
  variable.assign(updated);
  updated.dispose();
}
