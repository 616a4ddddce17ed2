/**
 * MiniMind's model configuration, field for field, in camelCase.
 *
 * Every field and default mirrors `MiniMindConfig.__init__` in `model/model_minimind.py:10-45`
 * at commit d65ef2c (jingyaogong/minimind). Fields that MiniMind derives from others (head size,
 * feed-forward width, MoE expert width, the YaRN table) are derived here the same way, from the
 * overridden values, unless they are overridden themselves.
 */

/** YaRN rope scaling, used only at inference when `inferenceRopeScaling` is on (mm:32-39). */
export interface RopeScaling {
  betaFast: number;
  betaSlow: number;
  factor: number;
  originalMaxPositionEmbeddings: number;
  attentionFactor: number;
  type: "yarn";
}

export interface MiniMindConfig {
  /** H, the width of the residual stream (default 768). */
  hiddenSize: number;
  /** L, the number of transformer blocks (default 8). */
  numHiddenLayers: number;
  /** Replace each block's feed-forward with a mixture of experts (default false). */
  useMoe: boolean;
  /** Dropout probability on embeddings, attention and residual branches (default 0). */
  dropout: number;
  /** V, the tokenizer's vocabulary size (default 6400). */
  vocabSize: number;
  bosTokenId: number;
  eosTokenId: number;
  /** Use fused scaled-dot-product attention when possible (default true). */
  flashAttn: boolean;
  /** Query heads (default 8). */
  numAttentionHeads: number;
  /** Key/value heads, shared by groups of query heads (GQA; default 4). */
  numKeyValueHeads: number;
  /** Size of one head; default ⌊hiddenSize / numAttentionHeads⌋. */
  headDim: number;
  /** The feed-forward activation's name (default "silu"). */
  hiddenAct: string;
  /** I, the SwiGLU feed-forward width; default ⌈hiddenSize·π / 64⌉·64. */
  intermediateSize: number;
  /** Length of the precomputed RoPE table (default 32768). */
  maxPositionEmbeddings: number;
  /** ε inside every RMSNorm (default 1e-6). */
  rmsNormEps: number;
  /** RoPE base θ (default 1e6). */
  ropeTheta: number;
  /** lm_head shares the embedding matrix (default true). */
  tieWordEmbeddings: boolean;
  /** Turn on YaRN scaling at inference (default false). */
  inferenceRopeScaling: boolean;
  /** The YaRN table when `inferenceRopeScaling`, else null. */
  ropeScaling: RopeScaling | null;
  /** E, routed experts per MoE layer (default 4). */
  numExperts: number;
  /** k, experts each token is sent to (default 1). */
  numExpertsPerTok: number;
  /** Width of one expert's SwiGLU; default `intermediateSize`. */
  moeIntermediateSize: number;
  /** Renormalise the top-k gate weights to sum to 1 (default true). */
  normTopkProb: boolean;
  /** Weight of the load-balancing auxiliary loss (default 5e-4). */
  routerAuxLossCoef: number;
}

/** ⌈hiddenSize·π / 64⌉·64: MiniMind's default feed-forward width (mm:26). */
export function defaultIntermediateSize(hiddenSize: number): number {
  return Math.ceil((hiddenSize * Math.PI) / 64) * 64;
}

/** MiniMind's YaRN defaults (mm:32-38). */
export function defaultRopeScaling(): RopeScaling {
  return {
    betaFast: 32,
    betaSlow: 1,
    factor: 16,
    originalMaxPositionEmbeddings: 2048,
    attentionFactor: 1.0,
    type: "yarn",
  };
}

/**
 * MiniMind's default configuration with `overrides` applied; derived fields follow the overrides.
 *
 * Align with: model/model_minimind.py:10-45
 */
export function miniMindConfig(overrides: Partial<MiniMindConfig> = {}): MiniMindConfig {
  const hiddenSize = overrides.hiddenSize ?? 768;
  const numAttentionHeads = overrides.numAttentionHeads ?? 8;
  const intermediateSize = overrides.intermediateSize ?? defaultIntermediateSize(hiddenSize);
  const inferenceRopeScaling = overrides.inferenceRopeScaling ?? false;
  return {
    hiddenSize,
    numHiddenLayers: 8,
    useMoe: false,
    dropout: 0.0,
    vocabSize: 6400,
    bosTokenId: 1,
    eosTokenId: 2,
    flashAttn: true,
    numAttentionHeads,
    numKeyValueHeads: 4,
    headDim: Math.floor(hiddenSize / numAttentionHeads),
    hiddenAct: "silu",
    intermediateSize,
    maxPositionEmbeddings: 32768,
    rmsNormEps: 1e-6,
    ropeTheta: 1e6,
    tieWordEmbeddings: true,
    inferenceRopeScaling,
    ropeScaling: inferenceRopeScaling ? defaultRopeScaling() : null,
    numExperts: 4,
    numExpertsPerTok: 1,
    moeIntermediateSize: intermediateSize,
    normTopkProb: true,
    routerAuxLossCoef: 5e-4,
    ...overrides,
  };
}
