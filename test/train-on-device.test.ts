/**
 * lib/model/train-on-device.ts: the GPU backends' step (AdamW as tensor ops, scalars read with
 * `await data()`) follows lib/model/train.ts's `trainStep` (AdamW on typed arrays) on cpu: the
 * same losses and parameters after a few steps from one start, up to float32 rounding, and it
 * leaves no tensor behind.
 */
import { describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { miniMindConfig } from "../lib/model/config.js";
import { MiniMindTS } from "../lib/model/model.js";
import { AdamW, trainStep, type StepResult } from "../lib/model/train.js";
import { DeviceAdamW, trainStepOnDevice } from "../lib/model/train-on-device.js";
import { Rng } from "../lib/random.js";
import { clipGradNorm } from "../solutions/lesson-14/clip.js";

const STEPS = 4;
const config = miniMindConfig({ vocabSize: 48, hiddenSize: 32, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, intermediateSize: 64 });

/** Random ids [4, 12] with the last label of each row ignored (−100). */
function batch(seed: number): { inputIds: tf.Tensor2D; labels: tf.Tensor2D } {
  const rng = new Rng(seed);
  const ids = Array.from({ length: 4 }, () => Array.from({ length: 12 }, () => rng.int(0, config.vocabSize - 1)));
  const labels = ids.map((row) => [...row.slice(1), -100]);
  return { inputIds: tf.tensor2d(ids, undefined, "int32"), labels: tf.tensor2d(labels, undefined, "int32") };
}

async function run(onDevice: boolean): Promise<{ results: StepResult[]; params: Float32Array[] }> {
  const model = MiniMindTS.init(config, 3);
  const variables = model.trainableVariables();
  const host = new AdamW(variables);
  const device = new DeviceAdamW(variables);
  const results: StepResult[] = [];
  for (let s = 0; s < STEPS; s++) {
    const { inputIds, labels } = batch(s);
    // A clip of 0.5 bites on these gradients, so clipping's scale reaches AdamW in both paths.
    results.push(onDevice ? await trainStepOnDevice(model, device, inputIds, labels, 0.01, clipGradNorm, 0.5) : trainStep(model, host, inputIds, labels, 0.01, clipGradNorm, 0.5));
    tf.dispose([inputIds, labels]);
  }
  const params = variables.map((v) => v.dataSync() as Float32Array);
  device.dispose();
  model.dispose();
  return { results, params };
}

describe("the on-device step (GPU backends in the page)", () => {
  it("follows trainStep on cpu: losses, gradient norms and parameters, up to float32 rounding", async () => {
    await tf.setBackend("cpu");
    const before = tf.memory().numTensors;
    const host = await run(false);
    const device = await run(true);
    expect(tf.memory().numTensors).toBe(before);
    expect(host.results[0].gradNorm).toBeGreaterThan(0.5);
    for (let s = 0; s < STEPS; s++) {
      expect(device.results[s].loss).toBeCloseTo(host.results[s].loss, 5);
      expect(device.results[s].gradNorm).toBeCloseTo(host.results[s].gradNorm, 4);
    }
    // The loss moved: the steps changed the model.
    expect(host.results[STEPS - 1].loss).not.toBeCloseTo(host.results[0].loss, 3);
    let worst = 0;
    host.params.forEach((p, i) => p.forEach((x, j) => (worst = Math.max(worst, Math.abs(x - device.params[i][j])))));
    expect(worst).toBeLessThan(1e-5);
  });
});
