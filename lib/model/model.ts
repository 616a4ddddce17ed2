/**
 * MiniMindTS: MiniMindForCausalLM in TypeScript, assembled from the course's lesson functions.
 *
 * embed → L × [x + attention(RMSNorm(x)); x + FFN(RMSNorm(x))] → RMSNorm → lm_head (tied to the
 * embedding by default). Parameters are tf.Variables named as in MiniMind's state_dict; the
 * functions come from a `ModelPieces` (the reference solutions unless told otherwise).
 */
import * as tf from "../tf.js";
import { registerWasmKernels } from "../wasm-kernels.js";
import type { MiniMindConfig } from "./config.js";
import { fastAttention } from "./fast-attention.js";
import { linear } from "./linear.js";
import { initialParameters, names, parameterSpecs } from "./params.js";
import { REFERENCE_PIECES } from "./pieces.js";
import type { CausalLm, ForwardOptions, ForwardOutput, GenerateOptions, KvEntry, ModelPieces, SampleOptions } from "./types.js";

registerWasmKernels();

export interface ModelOptions {
  /** The lesson functions to run; default the reference solutions. */
  pieces?: ModelPieces;
  /**
   * Use lib/model/fast-attention.ts when the attention piece is the reference (default true).
   * A learner's own attention is always used as written.
   */
  fastAttention?: boolean;
  /**
   * The weight the forward pass uses in place of parameter `name` (default: the parameter itself).
   * A LoRA model (lib/model/lora.ts) returns W + (α/r)·B·A here, so gradients reach the adapters.
   */
  effectiveWeight?: (name: string, weight: tf.Tensor) => tf.Tensor;
}

export interface ModelForwardOptions extends ForwardOptions {
  /** Training mode: the MoE auxiliary loss is computed only then (MiniMind's `self.training`). */
  training?: boolean;
  /** Also return the final hidden states (after the last RMSNorm): what a PPO critic's value head reads. */
  returnHidden?: boolean;
  /**
   * The position of the first new token; default the cached length. A server whose shared cache
   * has had columns cut off at the left (lib/serve/batcher.ts) passes where its tokens really are.
   */
  startPosition?: number;
}

export interface LossOutput {
  /** Cross-entropy + auxLoss: what the optimiser minimises (train_pretrain.py:36-37). */
  loss: tf.Scalar;
  logitsLoss: tf.Scalar;
  auxLoss: tf.Scalar;
}

export class MiniMindTS implements CausalLm {
  readonly config: MiniMindConfig;
  /** Every parameter by its MiniMind name. */
  readonly params: Record<string, tf.Variable>;
  readonly pieces: ModelPieces;
  private readonly attention: ModelPieces["attention"];
  private readonly rope: { cos: tf.Tensor2D; sin: tf.Tensor2D };
  private readonly effectiveWeight: ModelOptions["effectiveWeight"];

  /** Wraps `weights` (named as in `parameterSpecs`) in variables; the model owns them. */
  constructor(config: MiniMindConfig, weights: Record<string, tf.Tensor>, opts: ModelOptions = {}) {
    this.config = config;
    this.pieces = opts.pieces ?? REFERENCE_PIECES;
    const useFast = (opts.fastAttention ?? true) && this.pieces.attention === REFERENCE_PIECES.attention;
    this.attention = useFast ? fastAttention : this.pieces.attention;
    this.effectiveWeight = opts.effectiveWeight;
    this.params = {};
    for (const spec of parameterSpecs(config)) {
      const w = weights[spec.name];
      if (!w) throw new Error(`missing parameter ${spec.name}`);
      if (w.shape.join(",") !== spec.shape.join(",")) throw new Error(`${spec.name} has shape [${w.shape}], expected [${spec.shape}]`);
      this.params[spec.name] = tf.variable(w, true);
    }
    this.rope = this.pieces.ropeFrequencies(config.headDim, config.maxPositionEmbeddings, config.ropeTheta, config.ropeScaling);
  }

  /** A freshly initialised model: N(0, 0.02) projections and embedding, unit norms. */
  static init(config: MiniMindConfig, seed = 42, opts: ModelOptions = {}): MiniMindTS {
    const weights = initialParameters(config, seed);
    const model = new MiniMindTS(config, weights, opts);
    tf.dispose(Object.values(weights));
    return model;
  }

  /** The variables an optimiser updates, in MiniMind's order. */
  trainableVariables(): tf.Variable[] {
    return Object.values(this.params);
  }

  private p(name: string): tf.Tensor {
    const w = this.params[name];
    return this.effectiveWeight ? this.effectiveWeight(name, w) : w;
  }

  /**
   * input ids [B, S] int32 → logits [B, S, V], the summed MoE aux loss, and the cache.
   * New tokens sit at positions P … P + S − 1 where P is the cached length (or `startPosition`).
   *
   * Align with: model/model_minimind.py:209-232, 245-248
   */
  forward(inputIds: tf.Tensor2D, opts: ModelForwardOptions = {}): ForwardOutput & { hidden?: tf.Tensor3D } {
    const c = this.config;
    const past = opts.pastKv ?? null;
    return tf.tidy(() => {
      const [, S] = inputIds.shape;
      const startPos = opts.startPosition ?? (past ? past[0].k.shape[1] : 0);
      const cos = tf.slice(this.rope.cos, [startPos, 0], [S, -1]);
      const sin = tf.slice(this.rope.sin, [startPos, 0], [S, -1]);
      let hidden = tf.gather(this.p(names.embed), tf.cast(inputIds, "int32")) as tf.Tensor3D; // [B, S, H]
      const presents: KvEntry[] = [];
      let auxLoss: tf.Scalar = tf.scalar(0);
      for (let l = 0; l < c.numHiddenLayers; l++) {
        const attn = this.attention(this.pieces.rmsNorm(hidden, this.p(names.inputNorm(l)) as tf.Tensor1D, c.rmsNormEps) as tf.Tensor3D, this.attentionWeights(l), {
          numHeads: c.numAttentionHeads,
          numKvHeads: c.numKeyValueHeads,
          cos,
          sin,
          attentionMask: opts.attentionMask ?? null,
          pastKv: past ? past[l] : null,
          useCache: opts.useCache ?? false,
          eps: c.rmsNormEps,
        });
        if (attn.presentKv) presents.push(attn.presentKv);
        hidden = tf.add(hidden, attn.output);
        const normed = this.pieces.rmsNorm(hidden, this.p(names.postNorm(l)) as tf.Tensor1D, c.rmsNormEps);
        const mlp = this.feedForward(l, normed, opts.training ?? false);
        auxLoss = tf.add(auxLoss, mlp.auxLoss);
        hidden = tf.add(hidden, mlp.output);
      }
      hidden = this.pieces.rmsNorm(hidden, this.p(names.finalNorm) as tf.Tensor1D, c.rmsNormEps) as tf.Tensor3D;
      const head = c.tieWordEmbeddings ? this.p(names.embed) : this.p(names.lmHead);
      const logits = linear(hidden, head as tf.Tensor2D) as tf.Tensor3D;
      return { logits, auxLoss, pastKv: opts.useCache ? presents : undefined, ...(opts.returnHidden ? { hidden } : {}) };
    });
  }

  /**
   * Next-token loss on (ids, labels) plus the MoE aux loss, in training mode.
   *
   * Align with: trainer/train_pretrain.py:35-37, model/model_minimind.py:250-252
   */
  loss(inputIds: tf.Tensor2D, labels: tf.Tensor2D): LossOutput {
    return tf.tidy(() => {
      const { logits, auxLoss } = this.forward(inputIds, { training: true });
      const logitsLoss = this.pieces.causalLmLoss(logits, labels);
      return { loss: tf.add(logitsLoss, auxLoss) as tf.Scalar, logitsLoss, auxLoss };
    });
  }

  /** Generation with lesson 12's `generate` (greedy unless `pickToken` says otherwise; see `sampler`). */
  generate(inputIds: tf.Tensor2D, opts: GenerateOptions): tf.Tensor2D {
    return this.pieces.generate(this, inputIds, { eosTokenId: this.config.eosTokenId, ...opts });
  }

  /**
   * A `pickToken` that samples with lesson 3's `sampleNextToken` (temperature, top-k, top-p) and a
   * new seed at every step, so a run is reproducible but no two steps draw the same numbers.
   */
  sampler(opts: SampleOptions): (lastLogits: tf.Tensor2D) => tf.Tensor1D {
    let step = 0;
    return (lastLogits) => this.pieces.sampleNextToken(lastLogits, { ...opts, seed: opts.seed + step++ }) as tf.Tensor1D;
  }

  dispose(): void {
    tf.dispose([...Object.values(this.params), this.rope.cos, this.rope.sin]);
  }

  private attentionWeights(l: number) {
    const w = (p: Parameters<typeof names.attn>[1]) => this.p(names.attn(l, p));
    return {
      wq: w("q_proj") as tf.Tensor2D,
      wk: w("k_proj") as tf.Tensor2D,
      wv: w("v_proj") as tf.Tensor2D,
      wo: w("o_proj") as tf.Tensor2D,
      qNorm: w("q_norm") as tf.Tensor1D,
      kNorm: w("k_norm") as tf.Tensor1D,
    };
  }

  private feedForward(l: number, x: tf.Tensor, training: boolean): { output: tf.Tensor; auxLoss: tf.Scalar } {
    const c = this.config;
    const ffn = (name: (p: "gate_proj" | "up_proj" | "down_proj") => string) => ({
      gate: this.p(name("gate_proj")) as tf.Tensor2D,
      up: this.p(name("up_proj")) as tf.Tensor2D,
      down: this.p(name("down_proj")) as tf.Tensor2D,
    });
    if (!c.useMoe) return { output: this.pieces.feedForward(x, ffn((p) => names.mlp(l, p))), auxLoss: tf.scalar(0) };
    const experts = Array.from({ length: c.numExperts }, (_, e) => ffn((p) => names.expert(l, e, p)));
    return this.pieces.moeFeedForward(x, { gate: this.p(names.router(l)) as tf.Tensor2D, experts }, {
      topK: c.numExpertsPerTok,
      normTopkProb: c.normTopkProb,
      routerAuxLossCoef: c.routerAuxLossCoef,
      training,
    });
  }
}
