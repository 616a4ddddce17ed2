/**
 * lib/model/variable-memory.ts: AdamW's update in the variable's own wasm memory gives the numbers
 * the copy-and-assign path gives, and is not taken while another tensor shares that memory (the
 * sharer keeps its old values). On wasm AdamW runs compiled (lib/model/wasm/adamw.as.ts), with the
 * JavaScript loop's numbers bit for bit, moments included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { updateVariable } from "../lib/model/variable-memory.js";
import { AdamW } from "../lib/model/train.js";
import { Rng } from "../lib/random.js";

let previous: string | undefined;
beforeAll(async () => {
  previous = tf.getBackend();
  await import("@tensorflow/tfjs-backend-wasm");
  expect(await tf.setBackend("wasm")).toBe(true);
});
afterAll(async () => {
  if (previous !== undefined) await tf.setBackend(previous);
});

/** A variable that alone holds its memory (its initial tensor disposed, as the model's are). */
function ownVariable(values: number[], shape = [values.length]): tf.Variable {
  const init = tf.tensor(values, shape);
  const w = tf.variable(init);
  init.dispose();
  return w;
}

const start = [0.5, -1.25, 2, 3.5, -0.75, 1];
const grads = [0.1, -0.2, 0.3, 0.05, -0.4, 0.6];

/** Three AdamW steps over one [2, 3] variable on `backend`; its values after. */
async function adamWOn(backend: "cpu" | "wasm"): Promise<Float32Array> {
  expect(await tf.setBackend(backend)).toBe(true);
  const w = ownVariable(start, [2, 3]);
  const opt = new AdamW([w]);
  for (let s = 0; s < 3; s++) opt.step([Float32Array.from(grads, (g) => g * (s + 1))], 0.01);
  const out = Float32Array.from(w.dataSync() as Float32Array);
  w.dispose();
  return out;
}

describe("updateVariable", () => {
  it("writes in place on wasm: the same memory, the new values, no new tensor", () => {
    const w = ownVariable([1, 2, 3]);
    const before = tf.memory().numTensors;
    let seen: Float32Array | null = null;
    updateVariable(w, (values) => {
      seen = values;
      for (let i = 0; i < values.length; i++) values[i] *= 10;
    });
    expect(Array.from(w.dataSync())).toEqual([10, 20, 30]);
    expect(tf.memory().numTensors).toBe(before);
    // The view handed to `update` is the wasm heap itself, not a copy.
    const heap = (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer;
    expect((seen as unknown as Float32Array).buffer === heap).toBe(true);
    w.dispose();
  });

  it("copies and assigns while a reshape shares the variable's memory, which keeps its old values", () => {
    const w = ownVariable([1, 2, 3, 4]);
    const view = tf.reshape(w, [2, 2]);
    updateVariable(w, (values) => values.fill(7));
    expect(Array.from(w.dataSync())).toEqual([7, 7, 7, 7]);
    expect(Array.from(view.dataSync())).toEqual([1, 2, 3, 4]);
    tf.dispose([w, view]);
  });

  it("gives AdamW the numbers of the cpu backend's copy-and-assign path, bit for bit", async () => {
    const onCpu = await adamWOn("cpu");
    const onWasm = await adamWOn("wasm");
    expect(Array.from(onWasm)).toEqual(Array.from(onCpu));
    expect(Array.from(onWasm)).not.toEqual(start.map(Math.fround));
  });

  it("gives the compiled AdamW the JavaScript loop's values and moments bit for bit, odd lengths and wide magnitudes included", async () => {
    const rng = new Rng(11);
    const n = 1001; // pairs of lanes and one left over
    const init = rng.normals(n, 0, 1);
    const gradSteps = Array.from({ length: 5 }, (_, s) => Float32Array.from(rng.normals(n, 0, 1), (g, j) => g * 10 ** ((j % 9) - 6) * (s + 1)));
    const run = async (backend: "cpu" | "wasm") => {
      expect(await tf.setBackend(backend)).toBe(true);
      const w = ownVariable(Array.from(init), [7, 143]);
      const opt = new AdamW([w], { weightDecay: 0.1 });
      gradSteps.forEach((g, s) => opt.step([g], 1e-3 * (s + 1)));
      const { m, v } = opt.state();
      const out = { p: Array.from(w.dataSync()), m: Array.from(m[0]), v: Array.from(v[0]) };
      w.dispose();
      return out;
    };
    const onCpu = await run("cpu");
    const onWasm = await run("wasm");
    expect(onWasm.p).toEqual(onCpu.p);
    expect(onWasm.m).toEqual(onCpu.m);
    expect(onWasm.v).toEqual(onCpu.v);
  });
});
