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
  wasm: { HEAPU8: Uint8Array; asm?: { memory?: WebAssembly.Memory }; _malloc(bytes: number): number; _free(at: number): void };
  getMemoryOffset(dataId: object): number;
  refCount(dataId: object): number;
}

/** A float32 view of `size` numbers of tensor data `dataId` where they lie in the wasm heap (valid until the heap moves). */
function heapView(backend: WasmMemory, dataId: object, size: number): Float32Array {
  return new Float32Array(backend.wasm.HEAPU8.buffer, backend.getMemoryOffset(dataId), size);
}

/** The wasm backend, where `variable` is float32 and the sole owner of its memory there; else null. */
function owningBackend(variable: tf.Variable): WasmMemory | null {
  if (tf.getBackend() !== "wasm" || variable.dtype !== "float32") return null;
  const backend = tf.backend() as unknown as WasmMemory;
  return backend.refCount(variable.dataId) === 1 ? backend : null;
}

/** A float32 view of `variable`'s own memory on the wasm backend, or null where there is none to share safely. */
function ownMemory(variable: tf.Variable): Float32Array | null {
  const backend = owningBackend(variable);
  return backend === null ? null : heapView(backend, variable.dataId, variable.size);
}

/** Where a compiled kernel finds a variable it may update in place: the backend's memory and the byte offsets it needs. */
export interface VariableInMemory {
  memory: WebAssembly.Memory;
  /** Byte offset of the variable's first number. */
  at: number;
  /**
   * Copies `read` and then `updated` (float32 arrays) into a scratch stretch of the memory, calls
   * `run` with each one's byte offset in that order, copies `updated` back out and frees the scratch.
   */
  withCopies(read: Float32Array[], updated: Float32Array[], run: (offsets: number[]) => void): void;
}

/**
 * `variable` where a compiled kernel over the wasm backend's memory may update it in place (the
 * conditions of `updateVariable`'s own path), or null.
 */
export function variableInMemory(variable: tf.Variable): VariableInMemory | null {
  const backend = owningBackend(variable);
  const memory = backend?.wasm.asm?.memory;
  if (backend === null || memory === undefined) return null;
  return {
    memory,
    at: backend.getMemoryOffset(variable.dataId),
    withCopies(read, updated, run) {
      const arrays = [...read, ...updated];
      const scratch = backend.wasm._malloc(arrays.reduce((n, a) => n + a.byteLength, 0) + 16);
      try {
        const offsets: number[] = [];
        let at = Math.ceil(scratch / 16) * 16;
        for (const a of arrays) {
          new Float32Array(memory.buffer, at, a.length).set(a);
          offsets.push(at);
          at += a.byteLength;
        }
        run(offsets);
        updated.forEach((a, i) => a.set(new Float32Array(memory.buffer, offsets[read.length + i], a.length)));
      } finally {
        backend.wasm._free(scratch);
      }
    },
  };
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

/**
 * `t`'s float32 values to read at once: on the wasm backend a view of its memory there (no copy;
 * valid only until the next tensor operation, which may move the heap), elsewhere `dataSync()`.
 */
export function valuesToReadNow(t: tf.Tensor): Float32Array {
  if (tf.getBackend() === "wasm" && t.dtype === "float32") {
    return heapView(tf.backend() as unknown as WasmMemory, t.dataId, t.size);
  }
  return t.dataSync() as Float32Array;
}
