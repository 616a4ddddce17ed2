/**
 * The stages `npm run train -- <stage>` knows, one module each, loaded only when asked for.
 * Adding a stage is one line here and one module beside this file. The RL stages (dpo, ppo, grpo,
 * async) run their own loop (lib/rl/run.ts) over an algorithm module of lib/rl/algorithms/.
 */
import type { RlAlgorithm } from "../../rl/run.js";
import type { Stage } from "../stage.js";

export const STAGES: Record<string, () => Promise<Stage>> = {
  pretrain: async () => (await import("./pretrain.js")).default,
  sft: async () => (await import("./sft.js")).default,
  agent: async () => (await import("./agent.js")).default,
  lora: async () => (await import("./lora.js")).default,
  distill: async () => (await import("./distill.js")).default,
};

export const RL_STAGES: Record<string, () => Promise<RlAlgorithm>> = {
  dpo: async () => (await import("../../rl/algorithms/dpo.js")).default,
  ppo: async () => (await import("../../rl/algorithms/ppo.js")).default,
  grpo: async () => (await import("../../rl/algorithms/grpo.js")).default,
  async: async () => (await import("../../rl/algorithms/async.js")).default,
};

export const STAGE_NAMES = [...Object.keys(STAGES), ...Object.keys(RL_STAGES)];
