/**
 * Kernels the wasm backend of TensorFlow.js 4.22 lacks or runs slowly, written in JavaScript over
 * its memory or compiled from AssemblyScript into modules that import it (lib/model/wasm/).
 *
 * `UnsortedSegmentSum` is the gradient of `tf.gather` (every embedding lookup): without it,
 * training on wasm throws "Kernel 'UnsortedSegmentSum' not registered for backend 'wasm'".
 * `Transpose` (2-D), `GatherV2`, `Concat` and `SplitV` replace the backend's own for plain numeric
 * tensors, which are slow at the model's sizes (measured one by one, float32: the weight
 * gradients' transpose of [1024, 128] 1.0 ms, the embedding lookup 5.4 ms, RoPE's concat of two
 * halves 0.58 ms and its split 0.72 ms; `npm run bench`'s profile has them);
 * other cases (strings, batched gathers, empty parts) go to the backend's own kernel.
 * `BatchMatMul` and `Exp` on float32 are compiled kernels (WebAssembly SIMD): the matrix product
 * reads transposed operands at full speed, and eˣ is rounded from float64 as on the cpu backend.
 * Registering is idempotent and harmless on other backends; lib/model registers on import.
 */
import * as tf from "./tf.js";
import { compiledExp } from "./model/wasm/exp.js";
import { compiledMatMul } from "./model/wasm/matmul.js";

interface WasmTensorInfo {
  dataId: object;
  shape: number[];
  dtype: tf.DataType;
}

/** The part of tfjs-backend-wasm's BackendWasm that a JavaScript kernel uses. */
interface WasmBackendLike {
  /** The Emscripten module: its memory (`asm.memory`) and allocator. */
  wasm: { asm?: { memory?: WebAssembly.Memory }; _malloc(bytes: number): number; _free(at: number): void };
  getMemoryOffset(dataId: object): number;
  readSync(dataId: object): tf.backend_util.BackendValues;
  makeOutput(shape: number[], dtype: tf.DataType, memoryOffset?: number, values?: tf.backend_util.BackendValues): WasmTensorInfo;
  /** A view of the tensor's numbers where they lie in the module's memory (valid until the next allocation). */
  typedArrayFromHeap(t: WasmTensorInfo): Float32Array | Int32Array | Uint8Array;
}

type KernelArgs = { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs: tf.NamedAttrMap };
type Kernel = (args: KernelArgs) => WasmTensorInfo | WasmTensorInfo[];

const size = (shape: number[]) => shape.reduce((p, d) => p * d, 1);
const numeric = (t: WasmTensorInfo) => t.dtype === "float32" || t.dtype === "int32" || t.dtype === "bool";

/**
 * dst[dstAt + r·dstStride + c] = src[srcAt + r·srcStride + c] for r < rows, c < width: the strided
 * copy that gather, concat and split are made of (a loop for short rows, `set` for long ones).
 */
function copyRows(src: ArrayLike<number>, srcAt: number, srcStride: number, dst: Float32Array | Int32Array | Uint8Array, dstAt: number, dstStride: number, rows: number, width: number): void {
  if (width >= 64 && "subarray" in src) {
    const view = src as Float32Array;
    for (let r = 0; r < rows; r++) dst.set(view.subarray(srcAt + r * srcStride, srcAt + r * srcStride + width), dstAt + r * dstStride);
    return;
  }
  for (let r = 0; r < rows; r++) {
    const from = srcAt + r * srcStride;
    const to = dstAt + r * dstStride;
    for (let c = 0; c < width; c++) dst[to + c] = src[from + c];
  }
}

/** out = x gathered along `axis` at `indices` (batchDims 0): x [outer, dim, inner] → [outer, n, inner]. */
function gatherV2(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const x = args.inputs.x as WasmTensorInfo;
    const indices = args.inputs.indices as WasmTensorInfo;
    const batchDims = (args.attrs.batchDims as number | undefined) ?? 0;
    if (batchDims !== 0 || !numeric(x) || size(x.shape) === 0) return original(args);
    const axis = tf.util.parseAxisParam(args.attrs.axis as number, x.shape)[0];
    const ids = backend.readSync(indices.dataId) as Int32Array;
    const dim = x.shape[axis];
    for (const id of ids) if (!(id >= 0 && id < dim)) throw new Error(`GatherV2: the index value ${id} is not in [0, ${dim - 1}]`);
    const outer = size(x.shape.slice(0, axis));
    const inner = size(x.shape.slice(axis + 1));
    const out = backend.makeOutput([...x.shape.slice(0, axis), ...indices.shape, ...x.shape.slice(axis + 1)], x.dtype);
    const [xs, os] = [backend.typedArrayFromHeap(x), backend.typedArrayFromHeap(out)];
    for (let o = 0; o < outer; o++)
      for (let n = 0; n < ids.length; n++) copyRows(xs, (o * dim + ids[n]) * inner, 0, os, (o * ids.length + n) * inner, 0, 1, inner);
    return out;
  };
}

/** Inputs joined along `axis`: each is [outer, width_i] after collapsing, the output [outer, Σ width_i]. */
function concat(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const inputs = Object.values(args.inputs) as WasmTensorInfo[];
    if (inputs.length < 2 || !inputs.every((t) => numeric(t) && t.dtype === inputs[0].dtype && size(t.shape) > 0)) return original(args);
    const axis = tf.util.parseAxisParam(args.attrs.axis as number, inputs[0].shape)[0];
    tf.backend_util.assertParamsConsistent(inputs.map((t) => t.shape), axis);
    const outShape = tf.backend_util.computeOutShape(inputs.map((t) => t.shape), axis);
    const out = backend.makeOutput(outShape, inputs[0].dtype);
    const outer = size(outShape.slice(0, axis));
    const total = size(outShape.slice(axis));
    const os = backend.typedArrayFromHeap(out);
    let at = 0;
    for (const t of inputs) {
      const width = size(t.shape.slice(axis));
      copyRows(backend.typedArrayFromHeap(t), 0, width, os, at, total, outer, width);
      at += width;
    }
    return out;
  };
}

/** x cut along `axis` into parts of the given sizes: x [outer, Σ width_i] → each [outer, width_i]. */
function splitV(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const x = args.inputs.x as WasmTensorInfo;
    if (!numeric(x) || size(x.shape) === 0) return original(args);
    const axis = tf.util.parseAxisParam(args.attrs.axis as number, x.shape)[0];
    const sizes = tf.backend_util.prepareSplitSize(x as unknown as tf.Tensor, args.attrs.numOrSizeSplits as number | number[], axis);
    const outer = size(x.shape.slice(0, axis));
    const inner = size(x.shape.slice(axis + 1));
    const total = x.shape[axis] * inner;
    let at = 0;
    return sizes.map((s) => {
      const shape = [...x.shape];
      shape[axis] = s;
      const out = backend.makeOutput(shape, x.dtype);
      copyRows(backend.typedArrayFromHeap(x), at, total, backend.typedArrayFromHeap(out), 0, s * inner, outer, s * inner);
      at += s * inner;
      return out;
    });
  };
}

/**
 * xᵀ for a 2-D x [R, C] (perm [1, 0]; other ranks and perms go to the backend's own): the
 * output is written in order, the input read with stride C, which the cache serves well at
 * these sizes ([1024, 128]: 0.19 ms against 1.0 ms for the backend's own, measured).
 */
function transpose(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const x = args.inputs.x as WasmTensorInfo;
    const perm = args.attrs.perm as number[];
    if (x.shape.length !== 2 || perm[0] !== 1 || !numeric(x)) return original(args);
    const [R, C] = x.shape;
    const out = backend.makeOutput([C, R], x.dtype);
    const [xs, os] = [backend.typedArrayFromHeap(x), backend.typedArrayFromHeap(out)];
    for (let c = 0; c < C; c++) {
      const to = c * R;
      for (let r = 0; r < R; r++) os[to + r] = xs[r * C + c];
    }
    return out;
  };
}

/**
 * op(a)·op(b) over the last two axes, batch axes broadcast ([..., M, K]·[..., K, N] → [..., M, N]),
 * by the compiled product (lib/model/wasm/matmul.ts) in the backend's own memory: transposed
 * operands cost only the packing copy it makes anyway, where the backend's own falls back to a
 * slow loop (40–140 ms against 2.5 ms at [1024, 128]·[128, 448], measured). Each output element
 * sums over k in order in float32, as the backend's XNNPACK product does without transposes
 * (identical outputs there, measured). Other dtypes, empty tensors, batch shapes it would have to
 * broadcast inside the flattened batch, and a WebAssembly without SIMD go to the backend's own.
 */
function batchMatMul(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const a = args.inputs.a as WasmTensorInfo;
    const b = args.inputs.b as WasmTensorInfo;
    const [transA, transB] = [Boolean(args.attrs.transposeA), Boolean(args.attrs.transposeB)];
    const compiled = compiledMatMul(backend.wasm.asm?.memory);
    if (compiled === null || a.dtype !== "float32" || b.dtype !== "float32" || a.shape.length < 2 || b.shape.length < 2 || size(a.shape) === 0 || size(b.shape) === 0) return original(args);
    const [ra, rb] = [a.shape.length, b.shape.length];
    const [M, K] = transA ? [a.shape[ra - 1], a.shape[ra - 2]] : [a.shape[ra - 2], a.shape[ra - 1]];
    const [kB, N] = transB ? [b.shape[rb - 1], b.shape[rb - 2]] : [b.shape[rb - 2], b.shape[rb - 1]];
    const [outerA, outerB] = [a.shape.slice(0, -2), b.shape.slice(0, -2)];
    let outer: number[];
    try {
      outer = tf.broadcast_util.assertAndGetBroadcastShape(outerA, outerB);
    } catch {
      return original(args); // the backend's own says what is wrong with the shapes
    }
    const [batch, batchA, batchB] = [size(outer), size(outerA), size(outerB)];
    if (K !== kB || (batchA !== 1 && batchA !== batch) || (batchB !== 1 && batchB !== batch)) return original(args);
    const out = backend.makeOutput([...outer, M, N], "float32");
    const scratch = backend.wasm._malloc(compiled.scratchBytes(M, N, K) + 16);
    try {
      const aligned = Math.ceil(scratch / 16) * 16;
      const [aAt, bAt, cAt] = [a, b, out].map((t) => backend.getMemoryOffset(t.dataId));
      for (let i = 0; i < batch; i++) {
        compiled.matmul(M, N, K, aAt + (batchA === 1 ? 0 : i * M * K * 4), transA, bAt + (batchB === 1 ? 0 : i * K * N * 4), transB, cAt + i * M * N * 4, aligned);
      }
    } finally {
      backend.wasm._free(scratch);
    }
    return out;
  };
}

/**
 * eˣ of a float32 tensor by the compiled kernel (lib/model/wasm/exp.ts), in the backend's memory:
 * float64 inside, rounded to float32 once, as the cpu backend rounds Math.exp. The backend's own
 * takes 3.4 ms for the loss's [1008, 512] logits (measured), and the loss and its gradient each
 * take one. Other dtypes, empty tensors and a WebAssembly without SIMD go to the backend's own.
 */
function exp(original: Kernel): Kernel {
  return (args) => {
    const backend = args.backend as WasmBackendLike;
    const x = args.inputs.x as WasmTensorInfo;
    const compiled = compiledExp(backend.wasm.asm?.memory);
    if (compiled === null || x.dtype !== "float32" || size(x.shape) === 0) return original(args);
    const out = backend.makeOutput(x.shape, "float32");
    compiled.exp(size(x.shape), backend.getMemoryOffset(x.dataId), backend.getMemoryOffset(out.dataId));
    return out;
  };
}

/** Kernels this module wraps, each made from the backend's own (which it falls back to). */
const REPLACED: Array<[string, (original: Kernel) => Kernel]> = [
  ["BatchMatMul", batchMatMul],
  ["Exp", exp],
  ["Transpose", transpose],
  ["GatherV2", gatherV2],
  ["Concat", concat],
  ["SplitV", splitV],
];
const wrappers = new WeakSet<tf.KernelFunc>();

/**
 * out[s, …] = Σ_{i : segmentIds[i] = s} x[i, …] for s < numSegments; ids outside [0, numSegments)
 * are dropped, as on the cpu backend. `segmentIds` is 1-D and indexes x's first axis. Summed in
 * order of i into the zeroed output, float32 after each addition.
 */
function unsortedSegmentSumInto(out: Float32Array, x: Float32Array, segmentIds: Int32Array, numSegments: number, inner: number): void {
  out.fill(0);
  for (let i = 0; i < segmentIds.length; i++) {
    const s = segmentIds[i];
    if (s < 0 || s >= numSegments) continue;
    const from = i * inner;
    const to = s * inner;
    for (let j = 0; j < inner; j++) out[to + j] += x[from + j];
  }
}

/** The gradient of every embedding lookup, written where the output lies (0.2 ms at [1024, 128] against 2.5 ms through copies, measured). */
function unsortedSegmentSum(args: { inputs: tf.NamedTensorInfoMap; backend: unknown; attrs: tf.NamedAttrMap }): WasmTensorInfo {
  const backend = args.backend as WasmBackendLike;
  const x = args.inputs.x as WasmTensorInfo;
  const segmentIds = args.inputs.segmentIds as WasmTensorInfo;
  const numSegments = args.attrs.numSegments as number;
  if (x.dtype !== "float32") throw new Error(`UnsortedSegmentSum on wasm supports float32 only, got ${x.dtype}`);
  const inner = x.shape.slice(1).reduce((p, d) => p * d, 1);
  const ids = Int32Array.from(backend.readSync(segmentIds.dataId) as ArrayLike<number>);
  const out = backend.makeOutput([numSegments, ...x.shape.slice(1)], x.dtype);
  unsortedSegmentSumInto(backend.typedArrayFromHeap(out) as Float32Array, backend.typedArrayFromHeap(x) as Float32Array, ids, numSegments, inner);
  return out;
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
  const ids = Int32Array.from(backend.readSync(indices.dataId) as ArrayLike<number>);
  // Written where the output lies ([1008, 512] for the loss: 2.0 ms through a copy, measured).
  const out = backend.makeOutput([...indices.shape, depth], dtype);
  const values = backend.typedArrayFromHeap(out);
  values.fill(off);
  for (let i = 0; i < ids.length; i++) if (ids[i] >= 0 && ids[i] < depth) values[i * depth + ids[i]] = on;
  return out;
}

/**
 * Registers the missing (and replaces the broken) wasm kernels; safe to call from every module that
 * trains, and again after the wasm backend is imported (which registers its own OneHot).
 */
export function registerWasmKernels(): void {
  if (tf.getKernel("UnsortedSegmentSum", "wasm") === undefined) {
    tf.registerKernel({ kernelName: "UnsortedSegmentSum", backendName: "wasm", kernelFunc: unsortedSegmentSum as unknown as tf.KernelFunc });
  }
  for (const [name, make] of REPLACED) {
    const own = tf.getKernel(name, "wasm");
    if (own === undefined || wrappers.has(own.kernelFunc)) continue;
    const kernelFunc = make(own.kernelFunc as unknown as Kernel) as unknown as tf.KernelFunc;
    wrappers.add(kernelFunc);
    tf.unregisterKernel(name, "wasm");
    tf.registerKernel({ ...own, kernelFunc });
  }
  const current = tf.getKernel("OneHot", "wasm");
  if (current?.kernelFunc === (oneHot as unknown as tf.KernelFunc)) return;
  if (current !== undefined) tf.unregisterKernel("OneHot", "wasm");
  tf.registerKernel({ kernelName: "OneHot", backendName: "wasm", kernelFunc: oneHot as unknown as tf.KernelFunc });
}
