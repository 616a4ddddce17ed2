/**
 * Lesson 9's mutants: plausible wrong versions of its functions, one mistake each. Every one must
 * fail some case (test/selfcheck.test.ts); when a learner's output equals one's, the report names
 * its mistake (the first in this order that matches).
 */
import type { MutantDef } from "../engine/types.js";
import { residualVariant, rmsNormVariant } from "./variants.js";

export const mutants: MutantDef[] = [
  {
    exercise: "preNormResidual",
    name: "add-normalised",
    mistake: "the residual added the normalised h; add the original x: x + sublayer(rmsNorm(x))",
    fn: residualVariant({ addNormalised: true }),
  },
  {
    exercise: "preNormResidual",
    name: "fixed-eps",
    mistake: "the norm used a fixed ε (1e-5, MiniMind's config default) instead of the eps passed in",
    fn: residualVariant({ fixedEps: true }),
  },
  {
    exercise: "preNormResidual",
    name: "no-norm",
    mistake: "the sublayer read x itself; it reads rmsNorm(x, normWeight, eps)",
    fn: residualVariant({ noNorm: true }),
  },
  {
    exercise: "preNormResidual",
    name: "no-residual",
    mistake: "the residual connection is missing: add x back to the sublayer's output",
    fn: residualVariant({ noResidual: true }),
  },
  {
    exercise: "preNormResidual",
    name: "post-norm",
    mistake: "that is post-norm, rmsNorm(x + sublayer(x)); MiniMind normalises the sublayer's input: x + sublayer(rmsNorm(x))",
    fn: residualVariant({ postNorm: true }),
  },
  {
    exercise: "rmsNorm",
    name: "eps-as-floor",
    mistake: "ε was not added to the mean square inside the square root: it was left out (x/√mean(x²); a row of zeros then gives 0/0 = NaN) or used as a floor (x/√max(mean(x²), ε)); divide by √(mean(x²) + ε)",
    fn: rmsNormVariant({ epsAsFloor: true }),
  },
  {
    exercise: "rmsNorm",
    name: "eps-outside-sqrt",
    mistake: "ε was added after the square root; it goes inside: 1/√(mean(x²) + ε)",
    fn: rmsNormVariant({ epsOutsideSqrt: true }),
  },
  {
    exercise: "rmsNorm",
    name: "gain-off-tape",
    mistake: "the gain was copied out of its tensor (dataSync) before multiplying, so no gradient reaches weight; multiply by the weight tensor itself",
    fn: rmsNormVariant({ gainOffTape: true }),
  },
  {
    exercise: "rmsNorm",
    name: "no-eps",
    mistake: "ε was not added to the mean square inside the square root: it was left out (x/√mean(x²); a row of zeros then gives 0/0 = NaN) or used as a floor (x/√max(mean(x²), ε)); divide by √(mean(x²) + ε)",
    fn: rmsNormVariant({ noEps: true }),
  },
  {
    exercise: "rmsNorm",
    name: "no-weight",
    mistake: "the learned gain w was not applied: multiply the normalised x by weight",
    fn: rmsNormVariant({ noWeight: true }),
  },
  {
    exercise: "rmsNorm",
    name: "rms-via-norm",
    mistake: "the RMS came from tf.norm(x)/√H: right values, but the norm's gradient at a row of zeros is 0/0 = NaN; square and average x directly",
    fn: rmsNormVariant({ viaNorm: true }),
  },
  {
    exercise: "rmsNorm",
    name: "subtracts-mean",
    mistake: "the mean was subtracted first: that is LayerNorm; RMSNorm only divides by the root mean square",
    fn: rmsNormVariant({ centred: true }),
  },
  {
    exercise: "rmsNorm",
    name: "whole-tensor",
    mistake: "one RMS was taken over the whole tensor; take it over the last dimension only, one per position (keepDims)",
    fn: rmsNormVariant({ wholeTensor: true }),
  },
];
