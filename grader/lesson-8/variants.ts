/**
 * Parametrised wrong versions of lesson 8's parameter count. Each mutant file picks one flaw, so
 * every mutant differs from the reference in exactly one plausible way.
 */
import type { MiniMindConfig } from "../../lib/model/config.js";
import type { ParamCount } from "../../solutions/lesson-8/params.js";

export interface CountFlaws {
  /** lm_head counted on top of the embedding although they are tied. */
  tiedCountedTwice?: boolean;
  /** k and v projections as wide as q (GQA ignored). */
  noGqa?: boolean;
  /** The per-head q_norm and k_norm gains forgotten. */
  noQkNorm?: boolean;
  /** A two-matrix MLP (up, down) instead of SwiGLU's three. */
  twoMatrixMlp?: boolean;
  /** The router's E·H weights forgotten. */
  noRouter?: boolean;
  /** The final norm after the last block forgotten. */
  noFinalNorm?: boolean;
  /** Active parameters = total (every expert counted as used). */
  allExpertsActive?: boolean;
  /** A dense config returns `experts: 0` where the contract leaves the key out. */
  expertsZeroWhenDense?: boolean;
  /** Every expert uses intermediateSize, not moeIntermediateSize. */
  expertsUseDenseWidth?: boolean;
  /** headDim recomputed as hiddenSize / numAttentionHeads instead of read from the config. */
  headDimFromHidden?: boolean;
}

export function countVariant(flaws: CountFlaws) {
  return (config: MiniMindConfig): ParamCount => {
    const { vocabSize: V, hiddenSize: H, numHiddenLayers: L } = config;
    const d = flaws.headDimFromHidden ? Math.floor(H / config.numAttentionHeads) : config.headDim;
    const embedding = V * H * (config.tieWordEmbeddings && !flaws.tiedCountedTwice ? 1 : 2);
    const queryWidth = config.numAttentionHeads * d;
    const keyValueWidth = (flaws.noGqa ? config.numAttentionHeads : config.numKeyValueHeads) * d;
    const attention = L * (2 * H * queryWidth + 2 * H * keyValueWidth);
    const mlp = (width: number) => (flaws.twoMatrixMlp ? 2 : 3) * H * width;
    const expert = mlp(flaws.expertsUseDenseWidth ? config.intermediateSize : config.moeIntermediateSize);
    const router = flaws.noRouter ? 0 : config.numExperts * H;
    const feedForward = L * (config.useMoe ? router + config.numExperts * expert : mlp(config.intermediateSize));
    const norms = L * (2 * H + (flaws.noQkNorm ? 0 : 2 * d)) + (flaws.noFinalNorm ? 0 : H);
    const total = embedding + attention + feedForward + norms;
    if (!config.useMoe) return flaws.expertsZeroWhenDense ? { total, embedding, attention, feedForward, norms, experts: 0, active: total } : { total, embedding, attention, feedForward, norms, active: total };
    const unused = flaws.allExpertsActive ? 0 : L * (config.numExperts - config.numExpertsPerTok) * expert;
    return { total, embedding, attention, feedForward, norms, experts: L * config.numExperts * expert, active: total - unused };
  };
}
