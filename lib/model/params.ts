/**
 * The parameters of MiniMindForCausalLM: their names (exactly as in MiniMind's state_dict, so a
 * checkpoint reads the same in PyTorch), their shapes, and a seeded initialisation.
 *
 * `parameterSpecs` lists every parameter's shape from a config, which is what lesson 8's
 * `countParams` counts (its parts are the sums of these shapes, grouped by name): while lesson 8 is
 * graded an exercise may not import this module.
 *
 * @answers lesson-8 countParams
 */
import * as tf from "../tf.js";
import { Rng } from "../random.js";
import type { MiniMindConfig } from "./config.js";

export interface ParamSpec {
  name: string;
  shape: number[];
  /** "normal": N(0, 0.02²) like every Linear and the embedding; "ones": an RMSNorm gain. */
  init: "normal" | "ones";
}

/** Names of one block's parameters, e.g. layer(0).attn("q_proj") = "model.layers.0.self_attn.q_proj.weight". */
export const names = {
  embed: "model.embed_tokens.weight",
  finalNorm: "model.norm.weight",
  lmHead: "lm_head.weight",
  attn: (l: number, p: "q_proj" | "k_proj" | "v_proj" | "o_proj" | "q_norm" | "k_norm") => `model.layers.${l}.self_attn.${p}.weight`,
  inputNorm: (l: number) => `model.layers.${l}.input_layernorm.weight`,
  postNorm: (l: number) => `model.layers.${l}.post_attention_layernorm.weight`,
  mlp: (l: number, p: "gate_proj" | "up_proj" | "down_proj") => `model.layers.${l}.mlp.${p}.weight`,
  router: (l: number) => `model.layers.${l}.mlp.gate.weight`,
  expert: (l: number, e: number, p: "gate_proj" | "up_proj" | "down_proj") => `model.layers.${l}.mlp.experts.${e}.${p}.weight`,
};

/** A SwiGLU's three projections with `width` hidden units, under `name(p)`, in MiniMind's order. */
function swiglu(name: (p: "gate_proj" | "up_proj" | "down_proj") => string, H: number, width: number): ParamSpec[] {
  return [
    { name: name("gate_proj"), shape: [width, H], init: "normal" },
    { name: name("down_proj"), shape: [H, width], init: "normal" },
    { name: name("up_proj"), shape: [width, H], init: "normal" },
  ];
}

/**
 * Every parameter of the model, in MiniMind's module order. With tied embeddings lm_head.weight
 * is the embedding itself and is not listed separately (as in Hugging Face checkpoints).
 *
 * Align with: model/model_minimind.py:100-105, 140-153, 181-184, 201-204, 241-242
 */
export function parameterSpecs(c: MiniMindConfig): ParamSpec[] {
  const H = c.hiddenSize;
  const D = c.headDim;
  const specs: ParamSpec[] = [{ name: names.embed, shape: [c.vocabSize, H], init: "normal" }];
  for (let l = 0; l < c.numHiddenLayers; l++) {
    specs.push(
      { name: names.attn(l, "q_proj"), shape: [c.numAttentionHeads * D, H], init: "normal" },
      { name: names.attn(l, "k_proj"), shape: [c.numKeyValueHeads * D, H], init: "normal" },
      { name: names.attn(l, "v_proj"), shape: [c.numKeyValueHeads * D, H], init: "normal" },
      { name: names.attn(l, "o_proj"), shape: [H, c.numAttentionHeads * D], init: "normal" },
      { name: names.attn(l, "q_norm"), shape: [D], init: "ones" },
      { name: names.attn(l, "k_norm"), shape: [D], init: "ones" },
      { name: names.inputNorm(l), shape: [H], init: "ones" },
      { name: names.postNorm(l), shape: [H], init: "ones" },
    );
    if (c.useMoe) {
      specs.push({ name: names.router(l), shape: [c.numExperts, H], init: "normal" });
      for (let e = 0; e < c.numExperts; e++) specs.push(...swiglu((p) => names.expert(l, e, p), H, c.moeIntermediateSize));
    } else {
      specs.push(...swiglu((p) => names.mlp(l, p), H, c.intermediateSize));
    }
  }
  specs.push({ name: names.finalNorm, shape: [H], init: "ones" });
  if (!c.tieWordEmbeddings) specs.push({ name: names.lmHead, shape: [c.vocabSize, H], init: "normal" });
  return specs;
}

/** The std of the normal initialisation (transformers' usual initializer_range). */
export const INIT_STD = 0.02;

/**
 * Seeded values for every parameter: the same seed gives the same model on every machine.
 * `std` defaults to INIT_STD; graders use a larger one so that a random model's choices depend on
 * its whole context.
 */
export function initialParameters(c: MiniMindConfig, seed: number, std = INIT_STD): Record<string, tf.Tensor> {
  const rng = new Rng(seed);
  const out: Record<string, tf.Tensor> = {};
  for (const spec of parameterSpecs(c)) {
    const size = spec.shape.reduce((p, d) => p * d, 1);
    const values = spec.init === "ones" ? new Float32Array(size).fill(1) : rng.normals(size, 0, std);
    out[spec.name] = tf.tensor(values, spec.shape, "float32");
  }
  return out;
}
