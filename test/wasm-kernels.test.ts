/**
 * The wasm backend's kernels the course adds or replaces (lib/wasm-kernels.ts), checked against the
 * cpu backend: TensorFlow.js 4.22's own wasm OneHot wrote int32 bits into float32 outputs; gather,
 * concat and split are the course's faster ones, on every axis and dtype they take, and the cases
 * they hand back to the backend's own kernel.
 */
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { Rng } from "../lib/random.js";

/** `f`'s outputs (shapes, dtypes, values) on the cpu backend and on wasm. */
async function onBoth(f: () => tf.Tensor | tf.Tensor[]): Promise<Array<Array<{ shape: number[]; dtype: string; values: unknown[] }>>> {
  const results = [];
  for (const backend of ["cpu", "wasm"]) {
    await tf.setBackend(backend);
    const outs = [f()].flat();
    results.push(outs.map((t) => ({ shape: t.shape, dtype: t.dtype, values: Array.from(t.dataSync() as ArrayLike<unknown>) })));
    tf.dispose(outs);
  }
  return results;
}

describe("wasm kernels", () => {
  afterAll(async () => {
    await tf.setBackend("cpu");
  });

  it("oneHot gives 1 and 0 in float32 and int32, as on cpu, even after the wasm backend registers its own", async () => {
    process.env.COURSE_BACKEND = "wasm";
    try {
      await initBackend("wasm");
    } finally {
      delete process.env.COURSE_BACKEND;
    }
    expect(tf.getBackend()).toBe("wasm");
    expect(Array.from(tf.oneHot(tf.tensor1d([0, 2, 1], "int32"), 3, 1, 0, "float32").dataSync())).toEqual([1, 0, 0, 0, 0, 1, 0, 1, 0]);
    expect(Array.from(tf.oneHot(tf.tensor1d([1], "int32"), 3).dataSync())).toEqual([0, 1, 0]);
    expect(Array.from(tf.oneHot(tf.tensor1d([1, 5], "int32"), 3, 2, -1, "float32").dataSync())).toEqual([-1, 2, -1, -1, -1, -1]);
  });

  // Inputs are made afresh on each backend, from the same seed.
  const floats = (shape: number[]) => tf.tensor(new Rng(shape.length).normals(shape.reduce((p, d) => p * d, 1), 0, 1), shape);
  const ints = (shape: number[]) => tf.tensor(Array.from({ length: shape.reduce((p, d) => p * d, 1) }, (_, i) => i - 7), shape, "int32");
  const cases: Array<[string, () => tf.Tensor | tf.Tensor[]]> = [
    ["gather rows of an embedding by [2, 3] ids", () => tf.gather(floats([6, 5]), tf.tensor2d([[5, 0, 3], [3, 3, 1]], [2, 3], "int32"))],
    ["gather on a middle axis, int32", () => tf.gather(ints([2, 4, 3]), tf.tensor1d([3, 1], "int32"), 1)],
    ["gather with batchDims 1 (the backend's own)", () => tf.gather(floats([2, 4, 3]), tf.tensor2d([[1, 0], [3, 3]], [2, 2], "int32"), 1, 1)],
    ["concat two halves on the last axis (RoPE's)", () => tf.concat([floats([2, 3, 2, 4]), floats([2, 3, 2, 4])], -1)],
    ["concat three parts of different widths on axis 1, int32", () => tf.concat([ints([2, 1, 3]), ints([2, 4, 3]), ints([2, 2, 3])], 1)],
    ["concat on axis 0, long rows", () => tf.concat([floats([1, 100]), floats([2, 100])], 0)],
    ["concat with an empty part (the backend's own)", () => tf.concat([floats([2, 0]), floats([2, 3])], 1)],
    ["concat of bools", () => tf.concat([tf.tensor1d([true, false], "bool"), tf.tensor1d([false], "bool")])],
    ["transpose a 2-D float32 matrix", () => tf.transpose(floats([5, 3]))],
    ["transpose a 2-D int32 matrix", () => tf.transpose(ints([2, 7]))],
    ["transpose 3-D (the backend's own)", () => tf.transpose(floats([2, 3, 4]), [2, 0, 1])],
    ["split in two halves on the last axis (RoPE's)", () => tf.split(floats([2, 3, 2, 8]), 2, -1)],
    ["split in sizes 1, 3, 2 on axis 1, int32", () => tf.split(ints([2, 6, 2]), [1, 3, 2], 1)],
  ];
  for (const [name, f] of cases)
    it(`${name}: the same shapes, dtypes and values as on cpu`, async () => {
      await initBackend("wasm");
      const [cpu, wasm] = await onBoth(f);
      expect(wasm).toEqual(cpu);
    });

  it("the gather's index check still names the bad index", async () => {
    await initBackend("wasm");
    await tf.setBackend("wasm");
    expect(() => tf.gather(tf.ones([3, 2]), tf.tensor1d([1, 3], "int32"))).toThrow(/index value 3 is not in \[0, 2\]/);
  });
});
