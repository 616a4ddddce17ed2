/**
 * Lesson 17 — From pretrain to SFT. Cases for exercises/lesson-17/state-dict.ts: the lesson's
 * worked example, edge cases (a DDP prefix, another architecture, a size mismatch, strict loads),
 * seeded models, and PyTorch fixtures from load_state_dict itself (grader/lesson-17/parity.py).
 * A load that must fail is graded on failing: the call reports whether it threw, and whether the
 * error names the tensor at fault.
 */
import * as tf from "../../lib/tf.js";
import { miniMindConfig, type MiniMindConfig } from "../../lib/model/config.js";
import { initialParameters } from "../../lib/model/params.js";
import { isNotImplemented } from "../../lib/errors.js";
import { fixtureCases } from "../engine/fixtures.js";
import { ELEMENTWISE } from "../engine/types.js";
import type { AnyFn, CaseDef, Inputs, LessonGrader } from "../engine/types.js";

const LESSON = "lesson-17";

/** The result as data: `{ threw: false, …result }`, or `{ threw: true, namesTheTensor }`. */
const call = (fn: AnyFn, x: Inputs) => {
  try {
    return { threw: false, ...(fn(x.model, x.stateDict, x.strict) as object) };
  } catch (err) {
    if (isNotImplemented(err)) throw err; // a stub is "not implemented", not a load that failed
    const message = err instanceof Error ? err.message : String(err);
    return { threw: true, namesTheTensor: (x.mentions as string[]).every((n) => message.includes(n)) };
  }
};

const SMALL: Partial<MiniMindConfig> = { vocabSize: 40, hiddenSize: 16, numHiddenLayers: 1, numAttentionHeads: 4, numKeyValueHeads: 2 };

/** A freshly built model's parameters (`seed`) and a checkpoint made by `edit` from another run's (`from`). */
function load(model: Partial<MiniMindConfig>, checkpoint: Partial<MiniMindConfig>, strict: boolean, edit: (w: Record<string, tf.Tensor>) => Record<string, tf.Tensor> = (w) => w, mentions: string[] = []): Inputs {
  const saved = initialParameters(miniMindConfig(checkpoint), 2);
  const stateDict = edit(saved);
  for (const t of Object.values(saved)) if (!Object.values(stateDict).includes(t)) t.dispose();
  return { model: initialParameters(miniMindConfig(model), 1), stateDict, strict, mentions };
}

const renamed = (f: (n: string) => string) => (w: Record<string, tf.Tensor>) => Object.fromEntries(Object.entries(w).map(([n, t]) => [f(n), t]));
const without = (drop: string) => (w: Record<string, tf.Tensor>) => Object.fromEntries(Object.entries(w).filter(([n]) => n !== drop));

/** A one-layer model with H = 8 and 12 tokens (the model of lesson 19's worked example). */
const WORKED: Partial<MiniMindConfig> = { vocabSize: 12, hiddenSize: 8, numHiddenLayers: 1, numAttentionHeads: 2, numKeyValueHeads: 1, intermediateSize: 16 };

const cases: CaseDef[] = [
  {
    name: "worked example (lessons/17-pretrain-to-sft.md): one tensor loads, one arrives as 'module.…', not strict",
    kind: "worked",
    inputs: () => ({
      model: { "model.norm.weight": tf.tensor1d([1, 1]), "model.layers.0.mlp.up_proj.weight": tf.tensor2d([[0.1, -0.2]]) },
      stateDict: { "model.layers.0.mlp.up_proj.weight": tf.tensor2d([[0.5, 0.25]]), "module.model.norm.weight": tf.tensor1d([2, 3]) },
      strict: false,
      mentions: [],
    }),
  },
  { name: "pretrain → SFT: the same config loads everything (strict)", kind: "random", inputs: () => load(SMALL, SMALL, true) },
  { name: "two layers, GQA 4 over 2, not strict", kind: "random", inputs: () => load({ ...SMALL, numHiddenLayers: 2 }, { ...SMALL, numHiddenLayers: 2 }, false) },
  { name: "a checkpoint saved through DDP ('module.' prefix), not strict: nothing loads", kind: "edge", inputs: () => load(SMALL, SMALL, false, renamed((n) => `module.${n}`)) },
  { name: "an MoE checkpoint into a dense model, not strict", kind: "edge", inputs: () => load(SMALL, { ...SMALL, useMoe: true, numExperts: 2 }, false) },
  { name: "the worked model missing its final norm, not strict", kind: "edge", inputs: () => load(WORKED, WORKED, false, without("model.norm.weight")) },
  {
    name: "the same, strict: an error naming model.norm.weight",
    kind: "edge",
    inputs: () => load(WORKED, WORKED, true, without("model.norm.weight"), ["model.norm.weight"]),
  },
  {
    name: "a wider model's checkpoint (H=32 into H=16), not strict: a size-mismatch error naming the embedding",
    kind: "edge",
    inputs: () => load(SMALL, { ...SMALL, hiddenSize: 32 }, false, undefined, ["model.embed_tokens.weight"]),
  },
  {
    name: "a checkpoint with the wrong vocabulary (V=41), not strict: a size-mismatch error naming it",
    kind: "edge",
    inputs: () => load(SMALL, { ...SMALL, vocabSize: 41 }, false, undefined, ["model.embed_tokens.weight"]),
  },
  {
    name: "a mismatch in the last parameter only (an untied lm_head of V=41), not strict",
    kind: "edge",
    inputs: () => load({ ...SMALL, tieWordEmbeddings: false }, { ...SMALL, tieWordEmbeddings: false }, false, (w) => ({ ...w, "lm_head.weight": tf.zeros([41, 16]) }), ["lm_head.weight"]),
  },
  { name: "an empty checkpoint, not strict: everything missing, values kept", kind: "edge", inputs: () => load(SMALL, SMALL, false, () => ({})) },
  {
    name: "strict, a missing final norm and a wider embedding: the shape error comes first, naming the embedding",
    kind: "edge",
    inputs: () => load(SMALL, { ...SMALL, vocabSize: 41 }, true, without("model.norm.weight"), ["model.embed_tokens.weight"]),
  },
  {
    name: "a checkpoint that is not float32 (MiniMind saves float16, TensorFlow.js has none: int32 here): loaded as float32",
    kind: "edge",
    inputs: () => load(WORKED, WORKED, false, (w) => Object.fromEntries(Object.entries(w).map(([n, t]) => [n, tf.tidy(() => tf.cast(tf.round(tf.mul(t, 1000)), "int32"))]))),
  },
  {
    name: "a checkpoint written in reverse order, not strict: `weights` lists the model's parameters in the model's order",
    kind: "edge",
    inputs: () => load(WORKED, WORKED, false, (w) => Object.fromEntries(Object.entries(w).reverse().filter(([n]) => n !== "model.norm.weight"))),
    call: (fn, x) => withWeightOrder(call(fn, x)),
    checks: "the result, and `weightOrder`: the keys of `weights` in the order they come",
  },
  {
    name: "the weights returned are new tensors, not the checkpoint's or the model's own (the final norm missing, not strict)",
    kind: "edge",
    inputs: () => load(WORKED, WORKED, false, without("model.norm.weight")),
    call: (fn, x) => {
      const out = call(fn, x) as { threw: boolean; weights?: Record<string, tf.Tensor> };
      if (out.threw || !out.weights) return out;
      const inputs = new Set([...Object.values(x.model as Record<string, tf.Tensor>), ...Object.values(x.stateDict as Record<string, tf.Tensor>)]);
      return { ...out, newTensors: Object.values(out.weights).every((t) => !inputs.has(t)) };
    },
    checks: "the result, and `newTensors`: no tensor of `weights` is one of the input tensors themselves",
  },
];

/** The call's result plus the keys of `weights` in their order (an order the key-by-key comparison does not see). */
function withWeightOrder(out: unknown): unknown {
  const r = out as { threw: boolean; weights?: Record<string, tf.Tensor> };
  return r.threw || !r.weights ? r : { ...r, weightOrder: Object.keys(r.weights) };
}

const grader: LessonGrader = {
  lesson: LESSON,
  exercises: [
    {
      name: "loadStateDict",
      file: "state-dict.ts",
      tolerance: ELEMENTWISE,
      call,
      outputOrder: ["threw", "missing", "unexpected", "weightOrder", "weights", "newTensors", "namesTheTensor"],
      cases: [...cases, ...fixtureCases(LESSON, "loadStateDict")],
    },
  ],
};

export default grader;
