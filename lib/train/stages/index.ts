/**
 * The stages `npm run train -- <stage>` knows, one module each, loaded only when asked for.
 * Adding a stage is one line here and one module beside this file.
 */
import type { Stage } from "../stage.js";

export const STAGES: Record<string, () => Promise<Stage>> = {
  pretrain: async () => (await import("./pretrain.js")).default,
  sft: async () => (await import("./sft.js")).default,
  agent: async () => (await import("./agent.js")).default,
};

export const STAGE_NAMES = Object.keys(STAGES);
