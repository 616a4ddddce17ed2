/**
 * Compiled kernels that work in the wasm backend's own memory (matmul, exp, adamw .as.ts): each
 * module imports a memory instead of having one, so it reads and writes tensors where they lie,
 * with no copy in or out. A module is compiled once and instantiated once per memory.
 */

/**
 * A function from a memory to the module of `base64` instantiated over it (its exports, typed
 * `T`), or to null where it cannot be: a WebAssembly without SIMD, no memory, or one the module
 * cannot import (the threaded backend's shared memory).
 */
export function kernelsOverMemory<T>(base64: string): (memory: WebAssembly.Memory | undefined) => T | null {
  let compiled: WebAssembly.Module | null | undefined;
  const instances = new WeakMap<WebAssembly.Memory, T | null>();
  return (memory) => {
    if (memory === undefined) return null;
    if (compiled === undefined) {
      try {
        compiled = new WebAssembly.Module(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
      } catch {
        compiled = null;
      }
    }
    if (compiled === null) return null;
    let instance = instances.get(memory);
    if (instance === undefined) {
      try {
        instance = new WebAssembly.Instance(compiled, { env: { memory } }).exports as unknown as T;
      } catch {
        instance = null;
      }
      instances.set(memory, instance);
    }
    return instance;
  };
}
