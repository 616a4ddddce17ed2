/**
 * Lesson 14's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { clipVariant, lrVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "clipGradNorm",
    name: "no-sqrt",
    mistake: "the squared norm Σg² was used as the norm: take its square root",
    fn: clipVariant({ noSqrt: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "no-tidy",
    mistake: "the values are right but the intermediate tensors leak: wrap the body in tf.tidy(() => …)",
    fn: clipVariant({ noTidy: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "norm-after",
    mistake: "the norm returned is the one after clipping; clip_grad_norm_ returns the norm before",
    fn: clipVariant({ normAfter: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "per-tensor",
    mistake: "each gradient was clipped by its own norm: clipping uses one global norm over all parameters",
    fn: clipVariant({ perTensor: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "scale-up",
    mistake: "the factor maxNorm/‖g‖ was not capped at 1, so small gradients were scaled up",
    fn: clipVariant({ scaleUp: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "spread-in-hypot",
    mistake: "Math.hypot(...values) over every gradient value overflows the call stack on a real model's gradients (hundreds of thousands of numbers): reduce with tensor ops, or a loop",
    fn: clipVariant({ hypotSpread: true }),
  },
  {
    exercise: "clipGradNorm",
    name: "unguarded-factor",
    mistake: "the factor is maxNorm / ‖g‖ when ‖g‖ > maxNorm: PyTorch divides by ‖g‖ + 1e-6 and caps at 1, which matters when the norms are tiny",
    fn: clipVariant({ noEpsGuard: true }),
  },
  {
    exercise: "cosineLr",
    name: "clamped",
    mistake: "steps past the end are clamped at the floor; MiniMind's formula has no clamp (the cosine comes back up)",
    fn: lrVariant({ clamped: true }),
  },
  {
    exercise: "cosineLr",
    name: "linear",
    mistake: "a straight-line decay: MiniMind's curve is a half cosine, flat at both ends",
    fn: lrVariant({ linear: true }),
  },
  {
    exercise: "cosineLr",
    name: "no-floor",
    mistake: "the schedule decays to 0: MiniMind keeps a floor of lr/10, lr·(0.1 + 0.45·(1 + cos))",
    fn: lrVariant({ noFloor: true }),
  },
  {
    exercise: "cosineLr",
    name: "no-pi",
    mistake: "π is missing inside the cosine, so the lr barely falls: the angle must run from 0 to π over the run",
    fn: lrVariant({ noPi: true }),
  },
  {
    exercise: "shouldFlushTail",
    name: "always",
    mistake: "every epoch ends with a flush: when the last step completed a group, the optimiser already stepped",
    fn: (lastStep: number, startStep: number): boolean => lastStep > startStep,
  },
  {
    exercise: "shouldFlushTail",
    name: "from-resume",
    mistake: "groups were counted from the resume point; they are counted from step 1 (step mod K), as the stepping rule does",
    fn: (lastStep: number, startStep: number, k: number): boolean => lastStep > startStep && (lastStep - startStep) % k !== 0,
  },
  {
    exercise: "shouldFlushTail",
    name: "no-start-check",
    mistake: "an epoch that ran no micro-batch (last step = start step) was flushed: there is nothing waiting then",
    fn: (lastStep: number, _startStep: number, k: number): boolean => lastStep % k !== 0,
  },
  {
    exercise: "shouldStepOptimizer",
    name: "every-step",
    mistake: "the optimiser steps after every micro-batch from step K on: it must wait for each full group of K",
    fn: (step: number, k: number): boolean => step >= k,
  },
  {
    exercise: "shouldStepOptimizer",
    name: "first-of-group",
    mistake: "the optimiser steps on the first micro-batch of each group, before the other K − 1 gradients are in",
    fn: (step: number, k: number): boolean => (step - 1) % k === 0,
  },
  {
    exercise: "shouldStepOptimizer",
    name: "zero-based",
    mistake: "steps were treated as counted from 0 ((step + 1) mod K): MiniMind counts micro-batches from 1",
    fn: (step: number, k: number): boolean => (step + 1) % k === 0,
  },
];
