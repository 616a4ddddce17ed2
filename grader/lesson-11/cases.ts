/**
 * Lesson 11 — Attention. Cases for repeatKv and attention (exercises/lesson-11/attention.ts): the
 * lesson's worked example, edge cases (a decode step against a cache, left padding, a mask with
 * holes and an all-padding row, one kv head for all queries, every optional option left out),
 * seeded random layers, and PyTorch fixtures of MiniMind's Attention.forward
 * (grader/lesson-11/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { deps } from "../engine/deps.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT } from "../engine/types.js";
import type { CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-11";

function normals(rng: Rng, shape: number[], std = 1, mean = 0): tf.Tensor {
  return tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), mean, std), shape);
}

/** The key/value tensor of the lesson's worked example: B=1, T=2, Hkv=2, D=2. */
const workedKv = () => tf.tensor4d([[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]);

const repeatCase = (name: string, kind: CaseDef["kind"], seed: number, shape: [number, number, number, number], nRep: number): CaseDef => ({
  name: `${name} (seed ${seed}, x [${shape}], nRep=${nRep})`,
  kind,
  inputs: () => ({ x: normals(new Rng(seed), shape), nRep }),
});

interface LayerSpec {
  B: number;
  /** new positions */
  S: number;
  /** cached positions */
  P?: number;
  /** hidden size */
  H: number;
  Hq: number;
  Hkv: number;
  /** Per row: how many leading positions (of P + S) are padding; no mask when absent. */
  leftPad?: number[];
  useCache?: boolean;
  /** RoPE base (MiniMind's default 1e6). */
  base?: number;
  /** An explicit [B, P + S] mask (holes, all-masked rows); overrides leftPad. */
  mask?: number[][];
  /** Std of x (1 by default); near 1e-3 the QK-norm's ε matters. */
  xScale?: number;
  /** Pass only the required options (numHeads, numKvHeads, cos, sin): every optional one left out. */
  requiredOnly?: boolean;
}

/** The rows P … P + S − 1 of the reference RoPE table for head size D. */
function ropeRows(D: number, P: number, S: number, base: number) {
  const table = deps.ropeFrequencies(D, P + S, base);
  const cos = tf.slice(table.cos, [P, 0], [S, D]) as tf.Tensor2D;
  const sin = tf.slice(table.sin, [P, 0], [S, D]) as tf.Tensor2D;
  tf.dispose([table.cos, table.sin]);
  return { cos, sin };
}

/** [B, T] mask with leftPad[b] leading zeros. */
function leftPaddingMask(leftPad: number[], T: number): tf.Tensor2D {
  return tf.tensor2d(leftPad.flatMap((pad) => Array.from({ length: T }, (_, j) => (j < pad ? 0 : 1))), [leftPad.length, T]);
}

/** A seeded attention layer: weights of std 1/√H, QK-norm gains around 1 (not all ones, so their order matters). */
function layerInputs(seed: number, spec: LayerSpec): Inputs {
  const rng = new Rng(seed);
  const { B, S, H, Hq, Hkv } = spec;
  const P = spec.P ?? 0;
  const D = H / Hq;
  const scale = 1 / Math.sqrt(H);
  const weights = {
    wq: normals(rng, [Hq * D, H], scale),
    wk: normals(rng, [Hkv * D, H], scale),
    wv: normals(rng, [Hkv * D, H], scale),
    wo: normals(rng, [H, Hq * D], scale),
    qNorm: normals(rng, [D], 0.3, 1),
    kNorm: normals(rng, [D], 0.3, 1),
  };
  const x = normals(rng, [B, S, H], spec.xScale ?? 1);
  if (spec.requiredOnly) return { x, weights, opts: { numHeads: Hq, numKvHeads: Hkv, ...ropeRows(D, P, S, spec.base ?? 1e6) } };
  const pastKv = P > 0 ? { k: normals(rng, [B, P, Hkv, D]), v: normals(rng, [B, P, Hkv, D]) } : null;
  const opts = {
    numHeads: Hq,
    numKvHeads: Hkv,
    ...ropeRows(D, P, S, spec.base ?? 1e6),
    attentionMask: spec.mask ? tf.tensor2d(spec.mask) : spec.leftPad ? leftPaddingMask(spec.leftPad, P + S) : null,
    pastKv,
    useCache: spec.useCache ?? true,
    eps: 1e-6,
  };
  return { x, weights, opts };
}

const layerCase = (name: string, kind: CaseDef["kind"], seed: number, spec: LayerSpec): CaseDef => ({
  name: `${name} (seed ${seed}, B=${spec.B} S=${spec.S} P=${spec.P ?? 0} H=${spec.H} Hq=${spec.Hq} Hkv=${spec.Hkv})`,
  kind,
  inputs: () => layerInputs(seed, spec),
});

/** The layer of the lesson's worked example: B=1, S=3, H=4, two query heads sharing one kv head, D=2. */
function workedLayer(): Inputs {
  return {
    x: tf.tensor3d([[[1, 0, 1, 0], [0, 2, 0, 1], [1, 1, -1, 0]]]),
    weights: {
      wq: tf.tensor2d([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
      wk: tf.tensor2d([[1, 0, 1, 0], [0, 1, 0, 1]]),
      wv: tf.tensor2d([[1, 0, 0, 0], [0, 0, 0, 1]]),
      wo: tf.tensor2d([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
      qNorm: tf.tensor1d([1, 1]),
      kNorm: tf.tensor1d([1, 1]),
    },
    opts: { numHeads: 2, numKvHeads: 1, ...ropeRows(2, 0, 3, 1e6), attentionMask: null, pastKv: null, useCache: true, eps: 1e-6 },
  };
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "repeatKv",
      file: "attention.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.x, x.nRep),
      cases: [
        { name: "worked example: 2 kv heads, each read by 2 query heads", kind: "worked", inputs: () => ({ x: workedKv(), nRep: 2 }) },
        { name: "nRep = 1 (plain multi-head attention) changes nothing", kind: "edge", inputs: () => ({ x: workedKv(), nRep: 1 }) },
        repeatCase("one kv head shared by all 4 query heads (multi-query)", "edge", 3, [2, 3, 1, 4], 4),
        repeatCase("a single position", "edge", 4, [1, 1, 3, 2], 2),
        repeatCase("ragged sizes", "random", 5, [2, 5, 3, 4], 3),
        repeatCase("long sequence, T=512", "random", 6, [1, 512, 2, 8], 4),
        ...fixtureCases(LESSON, "repeatKv"),
      ],
    },
    {
      name: "attention",
      file: "attention.ts",
      tolerance: ELEMENTWISE,
      call: (fn, x) => fn(x.x, x.weights, x.opts),
      cases: [
        { name: "worked example (B=1, S=3, H=4, Hq=2, Hkv=1, D=2)", kind: "worked", inputs: workedLayer },
        layerCase("a decode step: one new token after 5 cached ones", "edge", 11, { B: 2, S: 1, P: 5, H: 8, Hq: 4, Hkv: 2 }),
        layerCase("a single token, no cache kept", "edge", 12, { B: 1, S: 1, H: 8, Hq: 2, Hkv: 2, useCache: false }),
        layerCase("left padding: rows start with 0, 2 and 3 pad positions", "edge", 13, { B: 3, S: 5, H: 8, Hq: 4, Hkv: 2, leftPad: [0, 2, 3] }),
        layerCase("one kv head for all query heads (multi-query)", "edge", 14, { B: 2, S: 4, H: 12, Hq: 3, Hkv: 1 }),
        layerCase("grouped queries, cache kept", "random", 15, { B: 2, S: 6, H: 16, Hq: 4, Hkv: 2 }),
        layerCase("plain multi-head (Hq = Hkv), no cache kept", "random", 16, { B: 2, S: 5, H: 12, Hq: 3, Hkv: 3, useCache: false }),
        layerCase("prefill after a cache, with padding", "random", 17, { B: 2, S: 3, P: 4, H: 16, Hq: 4, Hkv: 2, leftPad: [0, 2] }),
        layerCase("a longer sequence, RoPE base 1e4", "random", 18, { B: 1, S: 48, H: 32, Hq: 4, Hkv: 2, base: 1e4 }),
        layerCase("only the required options (no mask, cache, useCache or eps: ε = 1e-6), inputs near 1e-3 where ε matters", "edge", 19, { B: 2, S: 4, H: 8, Hq: 4, Hkv: 2, xScale: 1e-3, requiredOnly: true }),
        layerCase("a mask with holes, a row that is all padding, and a full row", "edge", 20, {
          B: 3,
          S: 6,
          H: 8,
          Hq: 4,
          Hkv: 2,
          mask: [
            [1, 0, 1, 1, 0, 1],
            [0, 0, 0, 0, 0, 0],
            [1, 1, 1, 1, 1, 1],
          ],
        }),
        ...fixtureCases(LESSON, "attention"),
      ],
    },
  ],
};

export default grader;
