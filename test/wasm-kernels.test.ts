/**
 * The wasm backend's kernels the course adds or replaces (lib/wasm-kernels.ts), checked against the
 * cpu backend: TensorFlow.js 4.22's own wasm OneHot wrote int32 bits into float32 outputs.
 */
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";

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
});
