/**
 * Grading a gradient instead of a value: several exercises are only right if backpropagation
 * through them is right (a detached ratio, a gather without a gradient, a stop-gradient in the
 * wrong place). These helpers turn an exercise's `call` into one that returns a gradient.
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "./fixtures.js";
import type { AnyFn, CaseDef, Inputs, Tolerance } from "./types.js";

export type Call = (fn: AnyFn, inputs: Inputs) => unknown;

export interface GradientOptions {
  /** The result is an object: differentiate this field of it (e.g. "loss"). */
  pick?: string;
  /** Contract a tensor result with inputs[upstream] (Σ upstream ⊙ out), as a later layer's gradient would. */
  upstream?: string;
}

/**
 * A `call` that returns d/d inputs[wrt] of the exercise's (scalar, or contracted) output, all other
 * inputs held fixed. Same shape as inputs[wrt].
 */
export function gradientCall(call: Call, wrt: string, opts: GradientOptions = {}): Call {
  return (fn, x) =>
    tf.tidy(() =>
      tf.grad((v: tf.Tensor) => {
        const out = call(fn, { ...x, [wrt]: v });
        const picked = (opts.pick === undefined ? out : (out as Record<string, unknown>)[opts.pick]) as tf.Tensor;
        return (opts.upstream === undefined ? picked : tf.sum(tf.mul(picked, x[opts.upstream] as tf.Tensor))) as tf.Scalar;
      })(x[wrt] as tf.Tensor),
    );
}

/** The same case graded on its gradient instead of its value: `call` returns the gradient. */
export function asGradientCase(c: CaseDef, call: Call, checks: string): CaseDef {
  return { ...c, name: `gradient: ${c.name}`, call, checks };
}

/**
 * A lesson's fixture cases of `exercise` plus its stored gradients (fixture key
 * `<exercise>.gradient<suffix>`), the latter graded through `gradient`.
 */
export function fixturesWithGradient(lesson: string, exercise: string, gradient: Call, checks: string, suffix = "", tolerance?: (name: string) => Tolerance | undefined): CaseDef[] {
  return fixtureCases(lesson, `${exercise}.gradient${suffix}`, tolerance).map((c) => asGradientCase({ ...c, name: `${c.name}${suffix ? ` (${suffix.slice(1)})` : ""}` }, gradient, checks));
}
