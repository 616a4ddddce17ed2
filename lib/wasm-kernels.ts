/**
 * Kernels the wasm backend of TensorFlow.js 4.22 lacks, written in JavaScript over its memory.
 *
 * `UnsortedSegmentSum` is the gradient of `tf.gather` (every embedding lookup): without it,
 * training on wasm throws "Kernel 'UnsortedSegmentSum' not registered for backend 'wasm'".
 * Registering is idempotent and harmless on other backends; lib/model registers on import.
 */
import * as tf from "./tf.js";

interface WasmTensorInfo {
  dataId: object;
  shape: number[];
  dtype: tf.DataType;
}

/** The part of tfjs-backend-wasm's BackendWasm that a JavaScript kernel uses. */
interface WasmBackendLike {
  readSync(dataId: object): tf.backend_util.BackendValues;
  makeOutput(shape: number[], dtype: tf.DataType, memoryOffset?: number, values?: tf.backend_util.BackendValues): WasmTensorInfo;
}

/**
 * out[s, …] = Σ_{i : segmentIds[i] = s} x[i, …] for s < numSegments; ids outside [0, numSegments)
 * are dropped, as on the cpu backend. `segmentIds` is 1-D and indexes x's first axis.
 */
function unsortedSegmentSumValues(x: ArrayLike<number>, segmentIds: ArrayLike<number>, numSegments: number, inner: number): Float32Array {
  const out = new Float32Array(numSegments * inner);
  for (let i = 0; i < segmentIds.length; i++) {
    const s = segmentIds[i];
    if (s < 0 || s >= numSegments) continue;
    const from = i * inner;
    const to = s * inner;
    for (let j = 0; j < inner; j++) out[to + j] += x[from + j];
  }
  return out;
}

function unsortedSegmentSum(args: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs: tf.NamedAttrMap }): WasmTensorInfo {
  const backend = args.backend as WasmBackendLike;
  const x = args.inputs.x as WasmTensorInfo;
  const segmentIds = args.inputs.segmentIds as WasmTensorInfo;
  const numSegments = args.attrs.numSegments as number;
  if (x.dtype !== "float32") throw new Error(`UnsortedSegmentSum on wasm supports float32 only, got ${x.dtype}`);
  const inner = x.shape.slice(1).reduce((p, d) => p * d, 1);
  const values = unsortedSegmentSumValues(
    backend.readSync(x.dataId) as Float32Array,
    backend.readSync(segmentIds.dataId) as Int32Array,
    numSegments,
    inner,
  );
  return backend.makeOutput([numSegments, ...x.shape.slice(1)], x.dtype, undefined, values);
}

/**
 * `OneHot` replaces the wasm backend's own, which (4.22, measured) writes the int32 bit pattern of
 * on/off into a float32 output: `tf.oneHot(ids, V, 1, 0, "float32")` gave 1.4e-45 for 1, so a
 * log-prob gathered through a one-hot was ~0 and no gradient reached the model.
 */
function oneHot(args: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs: tf.NamedAttrMap }): WasmTensorInfo {
  const backend = args.backend as WasmBackendLike;
  const indices = args.inputs.indices as WasmTensorInfo;
  const depth = args.attrs.depth as number;
  const on = args.attrs.onValue as number;
  const off = args.attrs.offValue as number;
  const dtype = (args.attrs.dtype as tf.DataType | undefined) ?? "int32";
  const ids = backend.readSync(indices.dataId) as ArrayLike<number>;
  const values = dtype === "float32" ? new Float32Array(ids.length * depth) : new Int32Array(ids.length * depth);
  values.fill(off);
  for (let i = 0; i < ids.length; i++) if (ids[i] >= 0 && ids[i] < depth) values[i * depth + ids[i]] = on;
  return backend.makeOutput([...indices.shape, depth], dtype, undefined, values);
}

/**
 * Registers the missing (and replaces the broken) wasm kernels; safe to call from every module that
 * trains, and again after the wasm backend is imported (which registers its own OneHot).
 */
export function registerWasmKernels(): void {
  if (tf.getKernel("UnsortedSegmentSum", "wasm") === undefined) {
    tf.registerKernel({ kernelName: "UnsortedSegmentSum", backendName: "wasm", kernelFunc: unsortedSegmentSum as unknown as tf.KernelFunc });
  }
  const current = tf.getKernel("OneHot", "wasm");
  if (current?.kernelFunc === (oneHot as unknown as tf.KernelFunc)) return;
  if (current !== undefined) tf.unregisterKernel("OneHot", "wasm");
  tf.registerKernel({ kernelName: "OneHot", backendName: "wasm", kernelFunc: oneHot as unknown as tf.KernelFunc });
}
