/**
 * One optimiser step over a chosen set of variables: forward + backward of any scalar loss,
 * clipping by global norm with lesson 14's `clipGradNorm` (the caller's, from lib/resolver.ts),
 * AdamW. Full training updates every parameter (lib/model/train.ts); LoRA updates only its
 * adapters and distillation only the student, so they name their variables.
 */
import * as tf from "../tf.js";
import type { AdamW } from "./train.js";
import type { ClipGradNorm } from "./types.js";

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
 * the same list); `clip` (lesson 14's clipGradNorm) scales them to a global norm of at most
 * `gradClip`. `phase` wraps the phases after backward (clipping, reading the gradients out, AdamW).
 * Align with: trainer/train_lora.py:36-48 (loss, backward, clip the LoRA params, step)
 */
export function stepOn(
  variables: tf.Variable[],
  optimizer: AdamW,
  loss: (extras: Record<string, tf.Scalar>) => tf.Scalar,
  lr: number,
  clip: ClipGradNorm,
  gradClip = 1.0,
  phase: StepPhase = untimed,
): VariableStepResult {
  const kept: Record<string, tf.Scalar> = {};
  const { value, grads } = tf.variableGrads(() => {
    const extras: Record<string, tf.Scalar> = {};
    const out = loss(extras);
    for (const [k, v] of Object.entries(extras)) kept[k] = tf.keep(v);
    return out;
  }, variables);
  const result = { loss: value.dataSync()[0], extras: Object.fromEntries(Object.entries(kept).map(([k, v]) => [k, v.dataSync()[0]])) };
  const clipped = phase("clip (lesson 14's clipGradNorm)", () => clip(variables.map((v) => grads[v.name]), gradClip));
  const gradArrays = phase("read gradients out", () => clipped.grads.map((g) => Float32Array.from(g.dataSync() as Float32Array)));
  const gradNorm = clipped.totalNorm.dataSync()[0];
  tf.dispose([value, ...Object.values(kept), ...Object.values(grads), ...clipped.grads, clipped.totalNorm]);
  phase("AdamW (typed arrays, in place on wasm)", () => optimizer.step(gradArrays, lr));
  return { ...result, gradNorm };
}
