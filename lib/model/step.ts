/**
 * One optimiser step over a chosen set of variables: forward + backward of any scalar loss,
 * clipping by global norm, AdamW. Full training updates every parameter (lib/model/train.ts);
 * LoRA updates only its adapters and distillation only the student, so they name their variables.
 */
import * as tf from "../tf.js";
import { clipGradNorm, type AdamW } from "./train.js";

export interface VariableStepResult {
  /** The loss that was differentiated. */
  loss: number;
  /** Global L2 norm of the gradients before clipping. */
  gradNorm: number;
  /** Other scalars the loss function kept (its `extras`), read out. */
  extras: Record<string, number>;
}

/** Runs `fn` as the named phase of a step; `npm run bench` passes one that times each phase. */
export type StepPhase = <T>(name: string, fn: () => T) => T;

const untimed: StepPhase = (_name, fn) => fn();

/**
 * `loss()` returns the scalar to minimise and may put scalars worth logging in `extras` (they are
 * kept and read out). Only `variables` get gradients and are updated (by `optimizer`, built over
 * the same list). `phase` wraps the host-side phases (reading the gradients out, clipping, AdamW).
 * Align with: trainer/train_lora.py:36-48 (loss, backward, clip the LoRA params, step)
 */
export function stepOn(variables: tf.Variable[], optimizer: AdamW, loss: (extras: Record<string, tf.Scalar>) => tf.Scalar, lr: number, gradClip = 1.0, phase: StepPhase = untimed): VariableStepResult {
  const kept: Record<string, tf.Scalar> = {};
  const { value, grads } = tf.variableGrads(() => {
    const extras: Record<string, tf.Scalar> = {};
    const out = loss(extras);
    for (const [k, v] of Object.entries(extras)) kept[k] = tf.keep(v);
    return out;
  }, variables);
  const gradArrays = phase("read gradients out", () => variables.map((v) => Float32Array.from(grads[v.name].dataSync() as Float32Array)));
  const result = { loss: value.dataSync()[0], extras: Object.fromEntries(Object.entries(kept).map(([k, v]) => [k, v.dataSync()[0]])) };
  tf.dispose([value, ...Object.values(kept), ...Object.values(grads)]);
  const gradNorm = phase("clip (typed arrays)", () => clipGradNorm(gradArrays, gradClip));
  phase("AdamW (typed arrays, then assign)", () => optimizer.step(gradArrays, lr));
  return { ...result, gradNorm };
}
