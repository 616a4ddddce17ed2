/**
 * The settings of the RL runs (`npm run train -- dpo|ppo|grpo`), MiniMind's argument names in
 * camelCase (trainer/train_grpo.py:208-239, train_ppo.py:311-352, train_dpo.py:136-152), with
 * the learning rates, batch sizes and lengths scaled to a 0.7 M-parameter model on a laptop CPU.
 */
import type { RewardKind } from "./rewards.js";
import type { TaskKind } from "./task-answers.js";

export interface RlSettings {
  /** Optimiser steps (one rollout batch each for GRPO/PPO, one batch of pairs for DPO). */
  steps: number;
  learningRate: number;
  gradClip: number;
  seed: number;
  /** Prompts a step (MiniMind's batch_size); each gets `numGenerations` completions. */
  promptsPerStep: number;
  numGenerations: number;
  /** max_gen_len: the answers are short ("The answer is 41, 47, 75." and the end token are 10 tokens). */
  maxNewTokens: number;
  /** Rollout sampling temperature (MiniMind: 0.8). */
  temperature: number;
  /** The KL coefficient: GRPO's beta, PPO's kl_coef, DPO's beta. */
  beta: number;
  /** GRPO: "grpo" (clipped ratio) or "cispo" (MiniMind's default). */
  lossType: "grpo" | "cispo";
  epsilon: number;
  epsilonHigh: number;
  /** PPO: clip ε, value coefficient, GAE γ and λ, value clip, epochs over a rollout, minibatch, early-stop KL, critic lr. */
  clipEpsilon: number;
  vfCoef: number;
  gamma: number;
  lam: number;
  cliprangeValue: number;
  updateIters: number;
  miniBatchSize: number;
  earlyStopKl: number;
  criticLearningRate: number;
  /** Held-out accuracy every this many steps, and at the end; at most evalLimit held-out prompts. */
  evalEvery: number;
  evalLimit: number;
  saveEvery: number;
  logEvery: number;
  /** The run stops (last checkpoint kept) when the KL to the reference exceeds this: a diverging policy. */
  maxKl: number;
  /** Stop training after this many minutes of wall time (then evaluate and save); 0 = no limit. */
  maxMinutes: number;
  /** Task kinds to train and measure on (lib/rl/tasks.ts); sort is the one with new held-out questions. */
  task: TaskKind[];
  reward: RewardKind;
  /** Sequence length the DPO pairs are cut/padded to (lesson 21's maxLength). */
  maxSeqLen: number;
}

export const RL_BASE: RlSettings = {
  steps: 200,
  learningRate: 2e-4,
  gradClip: 1.0,
  seed: 42,
  promptsPerStep: 8,
  numGenerations: 8,
  maxNewTokens: 12,
  temperature: 0.8,
  beta: 0.1,
  lossType: "cispo",
  epsilon: 0.2,
  epsilonHigh: 5.0,
  clipEpsilon: 0.2,
  vfCoef: 0.5,
  gamma: 1.0,
  lam: 0.95,
  cliprangeValue: 0.2,
  updateIters: 2,
  miniBatchSize: 32,
  earlyStopKl: 0.25,
  criticLearningRate: 3.3e-4,
  evalEvery: 25,
  evalLimit: 200,
  saveEvery: 25,
  logEvery: 1,
  maxKl: 5,
  maxMinutes: 0,
  task: ["sort"],
  reward: "task",
  maxSeqLen: 48,
};
