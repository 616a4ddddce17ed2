/**
 * Lesson 13 — Feed-forward and mixture of experts. Cases for exercises/lesson-13/ffn.ts: the
 * lesson's worked examples, edge cases (one token, all experts, an idle expert, no aux loss,
 * routing logits and pre-activations far beyond ±88),
 * seeded random layers with top-k > 1 and renormalisation off (so a forgotten routing weight
 * fails), a gradient, and PyTorch fixtures from MiniMind's FeedForward and MOEFeedForward
 * (grader/lesson-13/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { fixtureCases } from "../engine/fixtures.js";
import { gradientCall } from "../engine/gradients.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-13";

/** x for the worked examples: 3 tokens of width 2, as [1, 3, 2]. */
const workedX = () => tf.tensor3d([[[1, -1], [0.5, 2], [-1.5, 0.5]]]);

/** The dense FFN of lessons/13-ffn-and-moe.md § Worked example (H=2, I=3). */
function workedFfn() {
  return {
    gate: tf.tensor2d([[1, 0], [0, 1], [1, 1]]),
    up: tf.tensor2d([[0.5, 0], [0, -1], [1, 0.5]]),
    down: tf.tensor2d([[1, 0, 0.5], [0, 1, -0.5]]),
  };
}

/** The MoE layer of the worked example: 3 experts of width 2, k=2, no renormalisation, α=1. */
function workedMoe(): Inputs {
  const expert = (a: number, b: number) => ({
    gate: tf.tensor2d([[a, 0], [0, b]]),
    up: tf.tensor2d([[1, 0], [0, 1]]),
    down: tf.tensor2d([[1, 0], [0, 1]]),
  });
  return {
    x: workedX(),
    w: { gate: tf.tensor2d([[1, 0], [0, 1], [0.5, 0.5]]), experts: [expert(1, 0), expert(0, 1), expert(1, 1)] },
    opts: { topK: 2, normTopkProb: false, routerAuxLossCoef: 1, training: true },
  };
}

/** One SwiGLU expert with N(0, 1/fan_in) weights. */
function randomFfn(rng: Rng, H: number, I: number) {
  return {
    gate: tf.tensor2d(rng.normals(I * H, 0, 1 / Math.sqrt(H)), [I, H]),
    up: tf.tensor2d(rng.normals(I * H, 0, 1 / Math.sqrt(H)), [I, H]),
    down: tf.tensor2d(rng.normals(H * I, 0, 1 / Math.sqrt(I)), [H, I]),
  };
}

function randomX(rng: Rng, shape: number[]): tf.Tensor {
  return tf.tensor(rng.normals(shape.reduce((a, b) => a * b, 1)), shape);
}

const shapeName = (shape: number[]) => `[${shape.join(", ")}]`;

const ffnCase = (name: string, kind: CaseDef["kind"], seed: number, shape: number[], I: number, xScale = 1): CaseDef => ({
  name: `${name} (seed ${seed}, x ${shapeName(shape)}${xScale === 1 ? "" : ` ×${xScale}`}, I=${I})`,
  kind,
  inputs: () => {
    const rng = new Rng(seed);
    const H = shape[shape.length - 1];
    const x = randomX(rng, shape);
    return { x: xScale === 1 ? x : tf.tidy(() => tf.mul(x, xScale)), w: randomFfn(rng, H, I), upstream: randomX(rng, shape) };
  },
});

interface MoeSpec {
  shape: number[];
  experts: number;
  I: number;
  topK: number;
  normTopkProb: boolean;
  training: boolean;
  routerAuxLossCoef?: number;
  /** Make the last expert's routing logit very negative so that it never wins. */
  idleLastExpert?: boolean;
}

function randomMoe(seed: number, spec: MoeSpec): Inputs {
  const rng = new Rng(seed);
  const H = spec.shape[spec.shape.length - 1];
  const E = spec.experts;
  const x = spec.idleLastExpert ? tf.tidy(() => tf.abs(randomX(rng, spec.shape))) : randomX(rng, spec.shape);
  const gateValues = rng.normals(E * H, 0, 2 / Math.sqrt(H));
  if (spec.idleLastExpert) gateValues.forEach((v, i) => (gateValues[i] = i >= (E - 1) * H ? -Math.abs(v) - 1 : Math.abs(v)));
  const w = { gate: tf.tensor2d(gateValues, [E, H]), experts: Array.from({ length: E }, () => randomFfn(rng, H, spec.I)) };
  return {
    x,
    w,
    opts: { topK: spec.topK, normTopkProb: spec.normTopkProb, routerAuxLossCoef: spec.routerAuxLossCoef ?? 5e-4, training: spec.training },
    upstream: randomX(rng, spec.shape),
  };
}

const moeCase = (name: string, kind: CaseDef["kind"], seed: number, spec: MoeSpec): CaseDef => ({
  name:
    `${name} (seed ${seed}, x ${shapeName(spec.shape)}, E=${spec.experts} k=${spec.topK}, ` +
    `${spec.normTopkProb ? "renormalised" : "not renormalised"}, ${spec.training ? "training" : "eval"})`,
  kind,
  inputs: () => randomMoe(seed, spec),
});

const callFfn = (fn: AnyFn, x: Inputs) => fn(x.x, x.w);

const callMoe = (fn: AnyFn, x: Inputs) => fn(x.x, x.w, x.opts);

/**
 * ∂/∂W_router of Σ(output ⊙ upstream) + auxLoss: both the routing weights and the aux loss must
 * reach the router through the softmax probabilities.
 */
const routerGradient = (fn: AnyFn, x: Inputs) => {
  const w = x.w as { gate: tf.Tensor2D; experts: unknown[] };
  return tf.tidy(() =>
    tf.grad((gate: tf.Tensor) => {
      const { output, auxLoss } = fn(x.x, { ...w, gate }, x.opts) as { output: tf.Tensor; auxLoss: tf.Scalar };
      return tf.add(tf.sum(tf.mul(output, x.upstream as tf.Tensor)), auxLoss) as tf.Scalar;
    })(w.gate),
  );
};

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "feedForward",
      file: "ffn.ts",
      tolerance: ELEMENTWISE,
      call: callFfn,
      cases: [
        { name: "worked example: 3 tokens, H=2, I=3", kind: "worked", inputs: () => ({ x: workedX(), w: workedFfn() }) },
        ffnCase("a batch of sequences", "random", 1, [2, 5, 16], 48),
        ffnCase("MiniMind's width rule at H=256: I = ⌈256π/64⌉·64", "random", 2, [3, 256], 832),
        { ...ffnCase("the gradient w.r.t. x", "random", 3, [2, 3, 8], 24), call: gradientCall(callFfn, "x", { upstream: "upstream" }), checks: "the gradient of Σ(FFN(x) ⊙ g) w.r.t. x" },
        {
          ...ffnCase("the gradient at pre-activations of ±300 (silu must not overflow)", "edge", 6, [2, 8], 16, 100),
          call: gradientCall(callFfn, "x", { upstream: "upstream" }),
          checks: "the gradient of Σ(FFN(x) ⊙ g) w.r.t. x where gate pre-activations reach far below −88",
        },
        ffnCase("a single token", "edge", 4, [1, 1, 8], 16),
        {
          name: "x = 0 gives 0: silu(0) = 0 (seed 5, x [2, 8], I=16)",
          kind: "edge",
          inputs: () => ({ x: tf.zeros([2, 8]), w: randomFfn(new Rng(5), 8, 16) }),
        },
        ...fixtureCases(LESSON, "feedForward"),
      ],
    },
    {
      name: "moeFeedForward",
      file: "ffn.ts",
      tolerance: ELEMENTWISE,
      call: callMoe,
      cases: [
        { name: "worked example: 3 tokens, 3 experts, k=2, not renormalised, α=1", kind: "worked", inputs: workedMoe },
        moeCase("MiniMind's MoE routing, top-1", "random", 11, { shape: [2, 8, 16], experts: 4, I: 32, topK: 1, normTopkProb: true, training: true }),
        moeCase("top-2 without renormalisation", "random", 12, { shape: [2, 6, 16], experts: 4, I: 24, topK: 2, normTopkProb: false, training: true, routerAuxLossCoef: 0.1 }),
        moeCase("top-2 renormalised, 8 experts", "random", 13, { shape: [3, 5, 8], experts: 8, I: 16, topK: 2, normTopkProb: true, training: true, routerAuxLossCoef: 0.01 }),
        {
          ...moeCase("the gradient w.r.t. the router", "random", 20, { shape: [2, 4, 8], experts: 4, I: 8, topK: 2, normTopkProb: false, training: true, routerAuxLossCoef: 0.1 }),
          call: routerGradient,
          checks: "the gradient of Σ(output ⊙ g) + auxLoss w.r.t. the router weights w.gate",
        },
        moeCase("top-1 without renormalisation", "random", 14, { shape: [4, 8], experts: 4, I: 16, topK: 1, normTopkProb: false, training: true }),
        moeCase("eval mode: no aux loss", "random", 15, { shape: [2, 4, 8], experts: 4, I: 16, topK: 2, normTopkProb: false, training: false, routerAuxLossCoef: 0.1 }),
        moeCase("k = E: every expert, renormalised weights = p", "edge", 16, { shape: [1, 4, 8], experts: 3, I: 8, topK: 3, normTopkProb: true, training: true, routerAuxLossCoef: 1 }),
        moeCase("an expert no token picks", "edge", 17, { shape: [2, 3, 8], experts: 4, I: 8, topK: 1, normTopkProb: false, training: true, routerAuxLossCoef: 1, idleLastExpert: true }),
        moeCase("a single token", "edge", 18, { shape: [1, 1, 8], experts: 4, I: 8, topK: 2, normTopkProb: false, training: true, routerAuxLossCoef: 1 }),
        moeCase("training with α = 0: no aux loss", "edge", 19, { shape: [2, 3, 8], experts: 4, I: 8, topK: 2, normTopkProb: true, training: true, routerAuxLossCoef: 0 }),
        {
          name: "routing logits spread beyond 100 (up to 150): the router's softmax must subtract the max (4 one-hot tokens, E=4 k=2, renormalised, training)",
          kind: "edge",
          inputs: () => {
            // Token t is the unit vector e_t, so its routing logits are column t of the router.
            const logits = [
              [150, 110, 0, -40],
              [-20, 130, 125, 10],
              [60, 0, -100, 95],
              [0, 1, -120, 2],
            ];
            const rng = new Rng(21);
            return {
              x: tf.tidy(() => tf.reshape(tf.eye(4), [1, 4, 4])),
              w: { gate: tf.tensor2d(logits[0].map((_, e) => logits.map((row) => row[e]))), experts: Array.from({ length: 4 }, () => randomFfn(rng, 4, 8)) },
              opts: { topK: 2, normTopkProb: true, routerAuxLossCoef: 0.1, training: true },
            };
          },
        },
        ...fixtureCases(LESSON, "moeFeedForward"),
      ],
    },
  ],
};

export default grader;
