/**
 * Lesson 19 — LoRA training. Cases for the two functions of exercises/lesson-19/lora-training.ts:
 * the lesson's worked example, edge cases (no GQA, MoE, a square lm_head, no adapters), seeded
 * models, and PyTorch fixtures from MiniMind's own lines (grader/lesson-19/parity.py).
 */
import * as tf from "../../lib/tf.js";
import { miniMindConfig, type MiniMindConfig } from "../../lib/model/config.js";
import { initialParameters, parameterSpecs } from "../../lib/model/params.js";
import { fixtureCases } from "../engine/fixtures.js";
import { Rng } from "../../lib/random.js";
import { ELEMENTWISE, EXACT } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-19";

/** A deterministic N(0, 0.02²) draw for the adapter `name`, whatever order adapters are made in. */
function seededInitA(name: string, shape: [number, number]): tf.Tensor2D {
  let seed = 7;
  for (const ch of name) seed = (seed * 31 + ch.charCodeAt(0)) % 2147483647;
  return tf.tensor2d(new Rng(seed).normals(shape[0] * shape[1], 0, 0.02), shape);
}

/** The fixture's own A values (drawn by PyTorch), looked up by name. */
const tableInitA = (table: Record<string, tf.Tensor2D>) => (name: string): tf.Tensor2D => {
  const t = table[name];
  if (!t) throw new Error(`no adapter named ${name} in MiniMind's model: check which layers get one, and their names`);
  return tf.clone(t);
};

/** applyLora's record as names (order and count matter: no extra adapters) and values. */
const callApply = (fn: AnyFn, x: Inputs) => {
  const initA = x.initialA ? tableInitA(x.initialA as Record<string, tf.Tensor2D>) : seededInitA;
  const adapters = fn(x.weights, x.rank, initA) as Record<string, tf.Tensor>;
  return { names: Object.keys(adapters), adapters };
};

const TINY = { vocabSize: 40, hiddenSize: 16, numHiddenLayers: 1, numAttentionHeads: 4, numKeyValueHeads: 2 };

/** The worked example of lessons/19-lora-training.md: one layer, H = 8, 2 heads over 1 kv head, V = 12. */
const WORKED: Partial<MiniMindConfig> = { vocabSize: 12, hiddenSize: 8, numHiddenLayers: 1, numAttentionHeads: 2, numKeyValueHeads: 1, intermediateSize: 16 };

/** A seeded model's weights under MiniMind's names. */
function model(overrides: Partial<MiniMindConfig>, seed: number, rank: number): Inputs {
  return { weights: initialParameters(miniMindConfig(overrides), seed), rank };
}

/** Every parameter's shape, with rank-`rank` adapters on `adapted` (module names), in model order. */
function shapesWithAdapters(overrides: Partial<MiniMindConfig>, rank: number, adapted: (name: string, shape: number[]) => boolean): Inputs {
  const shapes: Record<string, number[]> = {};
  for (const spec of parameterSpecs(miniMindConfig(overrides))) {
    shapes[spec.name] = spec.shape;
    if (!adapted(spec.name, spec.shape)) continue;
    const module = spec.name.slice(0, -".weight".length);
    shapes[`${module}.lora.A.weight`] = [rank, spec.shape[1]];
    shapes[`${module}.lora.B.weight`] = [spec.shape[0], rank];
  }
  return { shapes };
}

/** MiniMind's choice, spelled out independently of the reference: square nn.Linear weights. */
const square = (name: string, shape: number[]) => shape.length === 2 && shape[0] === shape[1] && name !== "model.embed_tokens.weight";

const applyCases: CaseDef[] = [
  {
    name: "worked example: one layer, H=8, 2 heads over 1 kv head, r=2, A drawn as 0.02 everywhere",
    kind: "worked",
    inputs: () => ({
      ...model(WORKED, 1, 2),
      initialA: Object.fromEntries(["q_proj", "o_proj"].map((p) => [`model.layers.0.self_attn.${p}.lora.A.weight`, tf.fill([2, 8], 0.02)])),
    }),
  },
  { name: "two layers, H=16, GQA 4 over 2, r=4 (seed 2)", kind: "random", inputs: () => model({ ...TINY, numHiddenLayers: 2 }, 2, 4) },
  { name: "no GQA (kv heads = heads): k_proj and v_proj are square too, r=2", kind: "edge", inputs: () => model({ ...TINY, numKeyValueHeads: 4 }, 3, 2) },
  { name: "MoE: the router and the experts are not square, r=4", kind: "edge", inputs: () => model({ ...TINY, useMoe: true, numExperts: 3 }, 4, 4) },
  {
    name: "V = H = 16 with an untied lm_head: the square lm_head is adapted, the square embedding is not, r=8",
    kind: "edge",
    inputs: () => model({ ...TINY, vocabSize: 16, numAttentionHeads: 2, numKeyValueHeads: 1, tieWordEmbeddings: false }, 5, 8),
  },
  { name: "rank 1 (seed 6)", kind: "edge", inputs: () => model(TINY, 6, 1) },
  {
    name: "a square 2-D tensor that is no module's weight (…self_attn.rotary.freqs [8, 8]) gets no adapter, r=2",
    kind: "edge",
    inputs: () => {
      const x = model(WORKED, 8, 2);
      const weights = x.weights as Record<string, tf.Tensor>;
      const freqs = tf.tensor2d(new Rng(8).normals(64), [8, 8]);
      return { ...x, weights: Object.fromEntries(Object.entries(weights).flatMap(([n, t]) => (n.endsWith("q_proj.weight") ? [[n, t], ["model.layers.0.self_attn.rotary.freqs", freqs]] : [[n, t]]))) };
    },
  },
  { name: "four layers, H=32, 8 heads over 2, r=16 (seed 7)", kind: "random", inputs: () => model({ vocabSize: 64, hiddenSize: 32, numHiddenLayers: 4, numAttentionHeads: 8, numKeyValueHeads: 2 }, 7, 16) },
];

const trainableCases: CaseDef[] = [
  { name: "worked example: the worked model of applyLora with its two adapters, r=2", kind: "worked", inputs: () => shapesWithAdapters(WORKED, 2, square) },
  { name: "no adapters: nothing trains", kind: "edge", inputs: () => shapesWithAdapters(TINY, 4, () => false) },
  { name: "a scalar parameter (shape []) counts as one number", kind: "edge", inputs: () => ({ shapes: { "model.layers.0.scale": [], "model.layers.0.self_attn.q_proj.lora.A.weight": [2, 8], "model.layers.0.self_attn.q_proj.lora.B.weight": [8, 2], "model.norm.weight": [8] } }) },
  {
    name: "another adapter parameter (…q_proj.lora.scaling, shape []) trains too: the test is \"lora\" in the name",
    kind: "edge",
    inputs: () => ({ shapes: { "model.layers.0.self_attn.q_proj.weight": [8, 8], "model.layers.0.self_attn.q_proj.lora.A.weight": [2, 8], "model.layers.0.self_attn.q_proj.lora.B.weight": [8, 2], "model.layers.0.self_attn.q_proj.lora.scaling": [], "model.norm.weight": [8] } }),
  },
  {
    name: "PEFT-style adapter names (…q_proj.lora_A.default.weight) train too",
    kind: "edge",
    inputs: () => ({ shapes: { "model.layers.0.self_attn.q_proj.weight": [8, 8], "model.layers.0.self_attn.q_proj.lora_A.default.weight": [2, 8], "model.layers.0.self_attn.q_proj.lora_B.default.weight": [8, 2], "model.norm.weight": [8] } }),
  },
  { name: "only B matrices present (a half-loaded adapter file)", kind: "edge", inputs: () => ({ shapes: { "model.layers.0.self_attn.q_proj.weight": [8, 8], "model.layers.0.self_attn.q_proj.lora.B.weight": [8, 2] } }) },
  { name: "two layers, H=16, r=4", kind: "random", inputs: () => shapesWithAdapters({ ...TINY, numHiddenLayers: 2 }, 4, square) },
  { name: "MiniMind's default model (768 × 8 layers) with r=16 adapters", kind: "random", inputs: () => shapesWithAdapters({}, 16, square) },
  { name: "MoE with 4 experts, H=64, r=8", kind: "random", inputs: () => shapesWithAdapters({ vocabSize: 100, hiddenSize: 64, numHiddenLayers: 2, useMoe: true }, 8, square) },
];

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "applyLora",
      file: "lora-training.ts",
      tolerance: ELEMENTWISE,
      call: callApply,
      outputOrder: ["names", "adapters"],
      cases: [...applyCases, ...fixtureCases(LESSON, "applyLora")],
    },
    {
      name: "trainableParams",
      file: "lora-training.ts",
      tolerance: EXACT,
      call: (fn, x) => fn(x.shapes),
      outputOrder: ["trainable", "trainableCount", "totalCount"],
      cases: [...trainableCases, ...fixtureCases(LESSON, "trainableParams")],
    },
  ],
};

export default grader;
