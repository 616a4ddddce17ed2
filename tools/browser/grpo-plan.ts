/**
 * What the GRPO page runs: `npm run train -- grpo`'s step (lib/rl/algorithms/grpo.ts) on the sort
 * task from the shipped start model, with the page's smaller defaults, and the lesson functions it
 * needs with the lesson that teaches each: the model's pieces, lib/rl/context.ts's COMMON_FUNCTIONS
 * (lessons 4, 14, 25) and GRPO's own (lesson 24), as lib/rl/run.ts resolves them. The build writes
 * the table into grpo.json; the worker resolves it.
 */
import { PIECE_HOMES, runningPieces } from "../../lib/model/pieces.js";
import grpo from "../../lib/rl/algorithms/grpo.js";
import { COMMON_FUNCTIONS } from "../../lib/rl/context.js";
import { RL_BASE, type RlSettings } from "../../lib/rl/settings.js";
import type { GrpoSettings } from "./grpo-protocol.js";

/** Function name → lesson for a GRPO run of a model of `config`: lib/rl/run.ts's resolveRun call, as a table. */
export function grpoFunctionHomes(config: { useMoe: boolean }): Record<string, string> {
  const pieces = Object.fromEntries(runningPieces(config).map((name) => [name, PIECE_HOMES[name]]));
  return { ...pieces, ...COMMON_FUNCTIONS, ...grpo.functions };
}

/**
 * The page's defaults: a step a few seconds long on wasm (4 prompts × 8 samples rather than the
 * command line's 8 × 8), the capstone's learning rate, 64 held-out prompts; the rest RL_BASE's.
 */
export const GRPO_PAGE_DEFAULTS: Partial<RlSettings> = { steps: 30, promptsPerStep: 4, numGenerations: 8, learningRate: 5e-4, evalLimit: 64, evalEvery: 10 };

/** The run's settings: RL_BASE, GRPO's defaults, the page's, then what the page asked for (sort, task reward). */
export function grpoPageSettings(asked: GrpoSettings): RlSettings {
  const given = Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined)) as Partial<RlSettings>;
  return { ...RL_BASE, ...grpo.defaults, ...GRPO_PAGE_DEFAULTS, ...given, task: ["sort"], reward: "task" };
}
