/**
 * The typed-array attention core (lib/model/fast-attention-kernel.ts) computes what the tensor core
 * of lib/model/fast-attention.ts computes, values and gradients: with cached keys (P > 0), padded
 * keys, and query heads sharing kv heads. Both run on the cpu backend here, so the tensor core is
 * the exact reference; on wasm the model runs the kernel.
 */
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { attentionCoreKernel } from "../lib/model/fast-attention-kernel.js";
import { fastAttentionCore } from "../lib/model/fast-attention.js";
import { Rng } from "../lib/random.js";
import { wasmAttentionCore } from "../lib/model/wasm/attention-core.js";

await initBackend("cpu");

const maxAbsDiff = (a: tf.Tensor, b: tf.Tensor) => tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);
const normals = (rng: Rng, shape: number[]) => tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), 0, 1), shape);

describe("attention core kernel", () => {
  const cases = [
    { name: "training shape (no cache, no padding), 4 query heads over 2 kv heads", B: 3, S: 7, P: 0, Hq: 4, Hkv: 2, D: 8, padded: false },
    { name: "a cache of 3 positions and left padding", B: 2, S: 5, P: 3, Hq: 4, Hkv: 2, D: 8, padded: true },
    { name: "one kv head per query head", B: 2, S: 4, P: 1, Hq: 2, Hkv: 2, D: 4, padded: true },
    { name: "the bench's tiny model (16 × 64 tokens, head size 32)", B: 16, S: 64, P: 0, Hq: 4, Hkv: 2, D: 32, padded: false },
    { name: "a head size that is not a multiple of 4 (the compiled core declines it)", B: 2, S: 5, P: 2, Hq: 2, Hkv: 1, D: 6, padded: true },
  ];
  for (const c of cases)
    for (const loops of ["typed arrays", "compiled"] as const)
    it(`matches the tensor core, values and gradients, ${loops}: ${c.name}`, () => {
      const rng = new Rng(11);
      const T = c.P + c.S;
      const q = normals(rng, [c.B, c.S, c.Hq, c.D]) as tf.Tensor4D;
      const k = normals(rng, [c.B, T, c.Hkv, c.D]) as tf.Tensor4D;
      const v = normals(rng, [c.B, T, c.Hkv, c.D]) as tf.Tensor4D;
      const keep = c.padded ? tf.tensor2d(Array.from({ length: c.B }, (_, b) => Array.from({ length: T }, (_, j) => (j < b ? 0 : 1)))) : null;
      const dy = normals(rng, [c.B, c.S, c.Hq, c.D]);
      const kernel = (a: tf.Tensor4D, b: tf.Tensor4D, d: tf.Tensor4D, m: tf.Tensor2D | null = null) => attentionCoreKernel(a, b, d, m, loops);
      expect(maxAbsDiff(kernel(q, k, v, keep), fastAttentionCore(q, k, v, keep))).toBeLessThan(1e-5);
      const gradsOf = (core: typeof fastAttentionCore) => tf.grads((a, b, d) => tf.sum(tf.mul(core(a as tf.Tensor4D, b as tf.Tensor4D, d as tf.Tensor4D, keep), dy)))([q, k, v]);
      const [mine, reference] = [gradsOf(kernel), gradsOf(fastAttentionCore)];
      mine.forEach((g, i) => expect(maxAbsDiff(g, reference[i]), `gradient of ${"qkv"[i]}`).toBeLessThan(1e-5));
    });
});

describe("the compiled core", () => {
  it("loads here (WebAssembly SIMD) for head sizes that are multiples of 4, and declines others", () => {
    expect(wasmAttentionCore(32)).not.toBeNull();
    expect(wasmAttentionCore(6)).toBeNull();
  });
});
