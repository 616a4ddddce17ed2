/**
 * The pretraining step for a GPU backend (WebGL, WebGPU in a browser): the same forward, backward,
 * clipping and AdamW as lib/model/train.ts's `trainStep`, with two changes that matter on a GPU.
 *
 * 1. AdamW runs as tensor ops on the backend (`DeviceAdamW`): its moments stay on the GPU, and no
 *    gradient or parameter is read back each step. `trainStep`'s AdamW loops over typed arrays,
 *    which is fastest on cpu and wasm, where a read-back is a copy, but on a GPU it downloads
 *    every gradient and uploads every parameter each step.
 * 2. The step reads its scalars (loss, gradient norm) with `await data()`, never `dataSync()`:
 *    some backends cannot read synchronously (WebGPU under SwiftShader reads zeros: docs/BROWSER.md).
 *
 * The numbers are `trainStep`'s up to float32 rounding (the typed-array AdamW keeps its
 * intermediates in float64): test/train-on-device.test.ts compares both on cpu.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "./model.js";
import { adamWSettings, lossAndGradients, type AdamWOptions, type StepResult } from "./train.js";
import type { ClipGradNorm } from "./types.js";

/**
 * PyTorch's torch.optim.AdamW as tensor ops, with `m` and `v` kept as backend tensors:
 * p ← p·(1 − lr·λ); m ← β₁m + (1 − β₁)g; v ← β₂v + (1 − β₂)g²;
 * p ← p − lr·(m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε). Same defaults as lib/model/train.ts's AdamW.
 */
export class DeviceAdamW {
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly eps: number;
  private readonly weightDecay: number;
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private t = 0;

  constructor(private readonly variables: tf.Variable[], opts: AdamWOptions = {}) {
    ({ beta1: this.beta1, beta2: this.beta2, eps: this.eps, weightDecay: this.weightDecay } = adamWSettings(opts));
    // Inside tidy: a variable keeps its own reference, so the zeros it was made from are freed.
    this.m = variables.map((v) => tf.tidy(() => tf.variable(tf.zerosLike(v), false)));
    this.v = variables.map((v) => tf.tidy(() => tf.variable(tf.zerosLike(v), false)));
  }

  /** Applies one step with `grads[i]` (same shape as `variables[i]`) the gradient of `variables[i]`; `grads` stay the caller's. */
  step(grads: readonly tf.Tensor[], lr: number): void {
    this.t++;
    const bc1 = 1 - this.beta1 ** this.t;
    const bc2Sqrt = Math.sqrt(1 - this.beta2 ** this.t);
    tf.tidy(() => {
      this.variables.forEach((p, i) => {
        const g = grads[i];
        const m = tf.add(tf.mul(this.m[i], this.beta1), tf.mul(g, 1 - this.beta1));
        const v = tf.add(tf.mul(this.v[i], this.beta2), tf.mul(tf.square(g), 1 - this.beta2));
        const decayed = tf.mul(p, 1 - lr * this.weightDecay);
        const update = tf.div(tf.mul(m, lr / bc1), tf.add(tf.div(tf.sqrt(v), bc2Sqrt), this.eps));
        this.m[i].assign(m);
        this.v[i].assign(v);
        p.assign(tf.sub(decayed, update));
      });
    });
  }

  /** Frees the moments (the variables stay the model's). */
  dispose(): void {
    tf.dispose([...this.m, ...this.v]);
  }
}

/**
 * Forward, backward, clip to `gradClip` with `clip` (lesson 14's clipGradNorm), AdamW at `lr` on
 * the backend; resolves with the step's scalars, read asynchronously.
 * `inputIds`, `labels`: [B, S] int32 with −100 where a label is ignored.
 *
 * Align with: trainer/train_pretrain.py:35-49
 */
export async function trainStepOnDevice(
  model: MiniMindTS,
  optimizer: DeviceAdamW,
  inputIds: tf.Tensor2D,
  labels: tf.Tensor2D,
  lr: number,
  clip: ClipGradNorm,
  gradClip = 1.0,
): Promise<StepResult> {
  const { variables, value, parts, grads } = lossAndGradients(model, inputIds, labels);
  const clipped = clip(variables.map((v) => grads[v.name]), gradClip);
  optimizer.step(clipped.grads, lr);
  // One read for all four scalars.
  const scalars = tf.stack([value, ...parts, clipped.totalNorm]);
  const [loss, logitsLoss, auxLoss, gradNorm] = Array.from(await scalars.data());
  tf.dispose([scalars, value, ...parts, ...Object.values(grads), ...clipped.grads, clipped.totalNorm]);
  return { loss, logitsLoss, auxLoss, gradNorm };
}
