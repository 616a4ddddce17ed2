/**
 * Lesson 34 — the knobs of normalisation, rejection sampling and micro-batching, with AReaL's
 * defaults. This file is shared by the exercises and is not an exercise itself (like AReaL's
 * areal/api/cli_args.py, which holds NormConfig, RejectionSamplingConfig and MicroBatchSpec).
 */

/** Where a statistic is pooled: the whole batch, each group of rows, or not at all (AReaL's None). */
export type NormLevel = "batch" | "group" | "none";

/** AReaL's NormConfig (areal/api/cli_args.py:42-95). */
export interface NormConfig {
  /** Where the mean is taken; "none" subtracts nothing. */
  meanLevel?: NormLevel;
  /** Where the std is taken; "none" divides by nothing (and drops eps). */
  stdLevel?: NormLevel;
  /** Rows per group for the "group" levels: the samples of one prompt. */
  groupSize?: number;
  /** Each element's mean leaves that element out: (Σ − x_i) / (n − 1). */
  leaveOneOut?: boolean;
  /** Std with Bessel's correction: n − 1 in the denominator. */
  unbiased?: boolean;
  /** Added to the std before dividing. */
  eps?: number;
}

/** NormConfig's defaults (areal/api/cli_args.py:45-77). */
export const NORM_DEFAULTS: Required<NormConfig> = {
  meanLevel: "batch",
  stdLevel: "batch",
  groupSize: 1,
  leaveOneOut: false,
  unbiased: true,
  eps: 1e-5,
};

/** AReaL's RejectionSamplingConfig (areal/api/cli_args.py:1224-1385). */
export interface RejectionSamplingConfig {
  /** "token": judge every token alone; "sequence": one verdict per row. */
  level?: "token" | "sequence";
  /** "mask": drop out-of-bounds tokens from the loss; "clamp": clip their weight instead. */
  action?: "mask" | "clamp";
  /** What is judged: the ratio π_prox/π_behave, or a KL estimate built from its log. */
  metric?: "ratio" | "kl_k1" | "kl_k2" | "kl_k3";
  /** How a row's tokens are pooled at sequence level. */
  agg?: "sum" | "mean" | "max";
  /** Largest metric kept (AReaL requires upper > 1 for "ratio"). */
  upper?: number;
  /** Smallest metric kept; absent means no lower bound (and 0 when clamping). */
  lower?: number;
}

/** RejectionSamplingConfig's defaults (areal/api/cli_args.py:1252-1317); `lower` has none. */
export const REJECTION_DEFAULTS: Required<Omit<RejectionSamplingConfig, "lower">> = {
  level: "token",
  action: "mask",
  metric: "ratio",
  agg: "mean",
  upper: 5,
};

/** The token budget of a micro-batch when none is configured (areal/utils/data.py:693): in effect none. */
export const DEFAULT_MAX_TOKENS_PER_MB = 1e12;
