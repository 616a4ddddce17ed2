/**
 * One optimiser step of MiniMind's pretraining loop: forward + backward, gradient clipping and
 * AdamW, as trainer/train_pretrain.py:35-49 does it (without accumulation and mixed precision).
 *
 * The optimiser runs on typed arrays: a handful of parameters with ~10 elementwise tensor ops
 * each would cost hundreds of small kernel launches per step, while the textbook AdamW loop over
 * Float32Arrays takes a few milliseconds. On wasm it writes the new values into the variables' own
 * memory (lib/model/variable-memory.ts).
 *
 * Clipping is lesson 14's `clipGradNorm`, which the caller passes in (from lib/resolver.ts: the
 * learner's once it passes), so no module here computes a lesson's answer.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "./model.js";
import type { ClipGradNorm } from "./types.js";
import { updateVariable, variableInMemory } from "./variable-memory.js";
import { compiledAdamW } from "./wasm/adamw.js";

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** Decoupled weight decay; PyTorch's AdamW default 0.01 (MiniMind keeps the default). */
  weightDecay?: number;
}

/** AdamW's settings with PyTorch's defaults filled in (β₁ 0.9, β₂ 0.999, ε 1e-8, weight decay 0.01); shared by both AdamWs. */
export function adamWSettings(opts: AdamWOptions = {}): Required<AdamWOptions> {
  return { beta1: opts.beta1 ?? 0.9, beta2: opts.beta2 ?? 0.999, eps: opts.eps ?? 1e-8, weightDecay: opts.weightDecay ?? 0.01 };
}

/**
 * PyTorch's torch.optim.AdamW: p ← p·(1 − lr·λ); m ← β₁m + (1 − β₁)g; v ← β₂v + (1 − β₂)g²;
 * p ← p − lr·(m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε).
 */
export class AdamW {
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly eps: number;
  private readonly weightDecay: number;
  private readonly m: Float32Array[];
  private readonly v: Float32Array[];
  private t = 0;

  constructor(private readonly variables: tf.Variable[], opts: AdamWOptions = {}) {
    ({ beta1: this.beta1, beta2: this.beta2, eps: this.eps, weightDecay: this.weightDecay } = adamWSettings(opts));
    this.m = variables.map((v) => new Float32Array(v.size));
    this.v = variables.map((v) => new Float32Array(v.size));
  }

  /** The moments and step count, for a resume checkpoint (the arrays themselves, not copies). */
  state(): { m: Float32Array[]; v: Float32Array[]; t: number } {
    return { m: this.m, v: this.v, t: this.t };
  }

  /** Restores what `state()` returned (copied in; lengths must match the variables). */
  restore(state: { m: Float32Array[]; v: Float32Array[]; t: number }): void {
    this.variables.forEach((variable, i) => {
      if (state.m[i].length !== variable.size || state.v[i].length !== variable.size) throw new Error(`optimizer state ${i} has ${state.m[i].length} values, ${variable.name} has ${variable.size}`);
      this.m[i].set(state.m[i]);
      this.v[i].set(state.v[i]);
    });
    this.t = state.t;
  }

  /** Applies one step with `grads[i]` the gradient of `variables[i]`. */
  step(grads: Float32Array[], lr: number): void {
    this.t++;
    const bc1 = 1 - this.beta1 ** this.t;
    const bc2Sqrt = Math.sqrt(1 - this.beta2 ** this.t);
    const decay = 1 - lr * this.weightDecay;
    const [beta1, beta2, eps] = [this.beta1, this.beta2, this.eps];
    this.variables.forEach((variable, i) => {
      const g = grads[i];
      const m = this.m[i];
      const v = this.v[i];
      // On wasm, the same arithmetic compiled (lib/model/wasm/adamw.as.ts), two lanes at a time:
      // identical numbers, faster for the tiny model (g, m and v are copied in, m and v out).
      const inMemory = variableInMemory(variable);
      const compiled = inMemory === null ? null : compiledAdamW(inMemory.memory);
      if (inMemory !== null && compiled !== null) {
        inMemory.withCopies([g], [m, v], ([gAt, mAt, vAt]) => compiled.adamw(variable.size, inMemory.at, gAt, mAt, vAt, decay, beta1, beta2, lr / bc1, bc2Sqrt, eps));
        return;
      }
      updateVariable(variable, (p) => {
        for (let j = 0; j < p.length; j++) {
          p[j] *= decay;
          m[j] = beta1 * m[j] + (1 - beta1) * g[j];
          v[j] = beta2 * v[j] + (1 - beta2) * g[j] * g[j];
          p[j] -= ((lr / bc1) * m[j]) / (Math.sqrt(v[j]) / bc2Sqrt + eps);
        }
      });
    });
  }
}

export interface StepResult {
  loss: number;
  logitsLoss: number;
  auxLoss: number;
  gradNorm: number;
}

/**
 * The model's loss on a batch and its gradients over every trainable variable: `value` the total
 * loss, `parts` [logits loss, aux loss] (kept), `grads` by variable name. Shared by both steps.
 */
export function lossAndGradients(model: MiniMindTS, inputIds: tf.Tensor2D, labels: tf.Tensor2D): { variables: tf.Variable[]; value: tf.Scalar; parts: tf.Scalar[]; grads: tf.NamedTensorMap } {
  const variables = model.trainableVariables();
  const parts: tf.Scalar[] = [];
  const { value, grads } = tf.variableGrads(() => {
    const out = model.loss(inputIds, labels);
    parts.push(tf.keep(out.logitsLoss), tf.keep(out.auxLoss));
    return out.loss;
  }, variables);
  return { variables, value, parts, grads };
}

/**
 * Forward, backward, clip to `gradClip` with `clip` (lesson 14's clipGradNorm), AdamW at `lr`.
 * `inputIds`, `labels`: [B, S] int32 with −100 where a label is ignored.
 *
 * Align with: trainer/train_pretrain.py:35-49
 */
export function trainStep(model: MiniMindTS, optimizer: AdamW, inputIds: tf.Tensor2D, labels: tf.Tensor2D, lr: number, clip: ClipGradNorm, gradClip = 1.0): StepResult {
  const { variables, value, parts, grads } = lossAndGradients(model, inputIds, labels);
  const [loss, logitsLoss, auxLoss] = [value, ...parts].map((t) => t.dataSync()[0]);
  const clipped = clip(variables.map((v) => grads[v.name]), gradClip);
  const gradArrays = clipped.grads.map((g) => Float32Array.from(g.dataSync() as Float32Array));
  const gradNorm = clipped.totalNorm.dataSync()[0];
  tf.dispose([value, ...parts, ...Object.values(grads), ...clipped.grads, clipped.totalNorm]);
  optimizer.step(gradArrays, lr);
  return { loss, logitsLoss, auxLoss, gradNorm };
}
