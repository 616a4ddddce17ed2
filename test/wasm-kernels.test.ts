/**
 * The wasm backend's kernels the course adds or replaces (lib/wasm-kernels.ts), checked against the
 * cpu backend: TensorFlow.js 4.22's own wasm OneHot wrote int32 bits into float32 outputs; gather,
 * concat and split are the course's faster ones, on every axis and dtype they take, and the cases
 * they hand back to the backend's own kernel. The compiled matrix product (BatchMatMul) is checked
 * against the cpu backend within float32's summation bound, with every transpose, edge tiles,
 * broadcast batches and its gradient.
 */
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { Rng } from "../lib/random.js";
import { MATMUL_WASM_BASE64 } from "../lib/model/wasm/matmul.wasm.js";

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

  describe("the compiled matrix product", () => {
    const randomPair = (shapeA: number[], shapeB: number[], seed: number) => {
      const rng = new Rng(seed);
      const make = (shape: number[]) => tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), 0, 1), shape);
      return [make(shapeA), make(shapeB)];
    };
    /**
     * |wasm − cpu| ≤ 2·K·2⁻²³·Σ_k |a||b| elementwise: both sum K float32 products, so each is within
     * K·u·Σ|a·b| of the exact value (the standard bound for summing in order).
     */
    async function expectSameProduct(shapeA: number[], shapeB: number[], transA: boolean, transB: boolean, seed = 1): Promise<void> {
      await initBackend("wasm");
      const [cpu, wasm] = await onBoth(() => {
        const [a, b] = randomPair(shapeA, shapeB, seed);
        return [tf.matMul(a, b, transA, transB), tf.matMul(tf.abs(a), tf.abs(b), transA, transB)];
      });
      expect(wasm[0].shape).toEqual(cpu[0].shape);
      const K = transA ? shapeA[shapeA.length - 2] : shapeA[shapeA.length - 1];
      const [got, want, magnitude] = [wasm[0].values, cpu[0].values, cpu[1].values] as number[][];
      const worst = want.reduce((w, x, i) => Math.max(w, Math.abs(got[i] - x) - 2 * K * 2 ** -23 * magnitude[i]), -Infinity);
      expect(worst).toBeLessThanOrEqual(0);
    }

    const products: Array<[string, number[], number[], boolean, boolean]> = [
      ["7×13 · 13×5, edge tiles in both directions", [7, 13], [13, 5], false, false],
      ["Aᵀ: 13×7 stored, edge tiles", [13, 7], [13, 5], true, false],
      ["Bᵀ: 5×13 stored, edge tiles", [7, 13], [5, 13], false, true],
      ["Aᵀ and Bᵀ", [13, 9], [17, 13], true, true],
      ["one row (a decoding step's projection)", [1, 128], [64, 128], false, true],
      ["K = 1", [6, 1], [1, 10], false, false],
      ["the tiny model's FFN, [1024, 128] · [448, 128]ᵀ", [1024, 128], [448, 128], false, true],
      ["the tiny model's weight gradient, [1024, 448]ᵀ · [1024, 128]", [1024, 448], [1024, 128], true, false],
      ["batched, [3, 5, 6] · [3, 6, 4]", [3, 5, 6], [3, 6, 4], false, false],
      ["batched with Bᵀ, the attention scores' shape [2, 4, 9, 8] · [2, 4, 9, 8]ᵀ", [2, 4, 9, 8], [2, 4, 9, 8], false, true],
      ["a batch of A times one B, [2, 3, 5, 6] · [6, 4]", [2, 3, 5, 6], [6, 4], false, false],
      ["one A times a batch of B, [5, 6] · [2, 6, 4]", [5, 6], [2, 6, 4], false, false],
      ["batch axes that broadcast to the same count, [1, 3, 5, 6] · [3, 6, 4]", [1, 3, 5, 6], [3, 6, 4], false, false],
    ];
    for (const [name, shapeA, shapeB, transA, transB] of products)
      it(`${name}: the cpu backend's product within float32's summation bound`, async () => {
        await expectSameProduct(shapeA, shapeB, transA, transB);
      });

    it("an int32 product goes to the backend's own, which refuses it as before", async () => {
      await initBackend("wasm");
      await tf.setBackend("wasm");
      expect(() => tf.matMul(ints([3, 4]), ints([4, 2]))).toThrow(/non-float32/);
    });

    it("mismatched inner sizes are still refused with the backend's message", async () => {
      await initBackend("wasm");
      await tf.setBackend("wasm");
      expect(() => tf.matMul(tf.ones([2, 3]), tf.ones([4, 2]))).toThrow(/inner shapes/);
    });

    it("the gradient of a product with Bᵀ (every linear layer's) matches cpu's", async () => {
      await initBackend("wasm");
      const [cpu, wasm] = await onBoth(() => {
        const [a, b] = randomPair([9, 6], [5, 6], 7);
        return tf.grads((x: tf.Tensor, w: tf.Tensor) => tf.sum(tf.mul(tf.matMul(x, w, false, true), tf.range(0, 45).reshape([9, 5]))))([a, b]);
      });
      for (const [i, grad] of wasm.entries()) {
        expect(grad.shape).toEqual(cpu[i].shape);
        (grad.values as number[]).forEach((v, j) => expect(v).toBeCloseTo(cpu[i].values[j] as number, 3));
      }
    });

    it("leaves its inputs as they were", async () => {
      await initBackend("wasm");
      await tf.setBackend("wasm");
      const [a, b] = randomPair([10, 7], [7, 9], 3);
      const [before, beforeB] = [a.dataSync().slice(), b.dataSync().slice()];
      tf.matMul(a, b).dispose();
      tf.matMul(a, b.reshape([9, 7]), false, true).dispose();
      expect(a.dataSync()).toEqual(before);
      expect(b.dataSync()).toEqual(beforeB);
    });

    it("has no data segment, so instantiating it over the backend's memory writes nothing there", () => {
      const bytes = Uint8Array.from(atob(MATMUL_WASM_BASE64), (c) => c.charCodeAt(0));
      const sections: number[] = [];
      let at = 8; // magic and version
      const uleb = () => {
        let [value, shift] = [0, 0];
        for (;;) {
          const byte = bytes[at++];
          value += (byte & 0x7f) * 2 ** shift;
          shift += 7;
          if (byte < 0x80) return value;
        }
      };
      while (at < bytes.length) {
        sections.push(bytes[at++]);
        const length = uleb();
        at += length;
      }
      expect(sections).toContain(2); // the import of the memory
      expect(sections).not.toContain(11); // data
      expect(sections).not.toContain(5); // a memory of its own
    });
  });

  it("eˣ of float32 is the cpu backend's (Math.exp rounded to float32) on all but rare boundary cases, and never more than 1 ulp off", async () => {
    await initBackend("wasm");
    const rng = new Rng(5);
    const xs = [...rng.normals(20000, 0, 30), -Infinity, Infinity, NaN, 0, -0, 88.72, 88.73, -87.3, -103.9, -104.5, 1e-8, -1e-30];
    const [cpu, wasm] = await onBoth(() => tf.exp(tf.tensor1d(xs)));
    const [want, got] = [cpu[0].values, wasm[0].values] as number[][];
    const ulp = (x: number) => (x === 0 ? 2 ** -149 : Math.abs(Math.fround(x * (1 + 2 ** -23)) - x) || 2 ** -149);
    let differ = 0;
    want.forEach((w, i) => {
      if (Object.is(w, got[i])) return;
      differ++;
      expect(Math.abs(got[i] - w), `e^${xs[i]}`).toBeLessThanOrEqual(ulp(w));
    });
    expect(differ).toBeLessThanOrEqual(2);
    expect(got.slice(20000)).toEqual([0, Infinity, NaN, 1, 1, want[20005], Infinity, want[20007], want[20008], 0, 1, 1]);
  });
});
