/**
 * The options `npm run train` takes for the RL stages (dpo, ppo, grpo), beside the shared ones
 * (--config, --steps, --out, --from, --resume, --use-reference, --learning-rate, --seed, --save-every,
 * --eval-every, --log-every, --batch-size = prompts a step), parsed into RlSettings overrides.
 * --resume itself is the run's (lib/rl/resume.ts checks the overrides against the saved run).
 */
import { TrainError } from "../train/errors.js";
import type { TrainSettings } from "../train/settings.js";
import { REWARD_KINDS, type RewardKind } from "./rewards.js";
import type { RlSettings } from "./settings.js";
import { ASYNC_OPTIONS, ASYNC_USAGE, parseAsyncOptions } from "./async-options.js";
import type { AsyncSettings } from "./async-scheduler.js";
import { parseTaskKinds } from "./tasks.js";

export const RL_OPTIONS = {
  task: { type: "string" as const },
  "num-generations": { type: "string" as const },
  "max-new-tokens": { type: "string" as const },
  "loss-type": { type: "string" as const },
  reward: { type: "string" as const },
  beta: { type: "string" as const },
  temperature: { type: "string" as const },
  "max-kl": { type: "string" as const },
  "max-minutes": { type: "string" as const },
  ...ASYNC_OPTIONS,
};

export const RL_USAGE = `RL stages (dpo, ppo, grpo, async; start from a task SFT: --from runs/rl-sft-sort/full_sft_128.safetensors):
  --task KINDS         sort (default), add,sub,mul,reverse,count,upper,length, or all
  --num-generations G  samples a prompt (grpo 8; dpo samples G to find a right and a wrong answer)
  --batch-size N       prompts a step   --max-new-tokens N   --temperature X   --beta X (KL coefficient)
  --loss-type grpo|cispo   --reward ${REWARD_KINDS.join("|")}   --max-kl X (stop above)   --max-minutes X
  --resume DIR         continue an RL run (same settings; --steps, --max-minutes and the intervals may change)
${ASYNC_USAGE}`;

function num(name: string, raw: string, integer: boolean, min: number): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) throw new TrainError(`--${name} must be ${integer ? "an integer" : "a number"} ≥ ${min}, got ${JSON.stringify(raw)}`, 2);
  return n;
}

/** The RL settings the command line sets; `shared` holds the options every stage takes, already checked. */
export function parseRlOptions(values: Record<string, string | undefined>, shared: Partial<TrainSettings>, steps: number | undefined, stage?: string): Partial<RlSettings & AsyncSettings> {
  if (values.data !== undefined) throw new TrainError("the RL stages read datasets/corpus/rl.jsonl (choose kinds with --task); --data is for pretrain and sft", 2);
  const out: Partial<RlSettings & AsyncSettings> = parseAsyncOptions(values, stage);
  if (steps !== undefined) out.steps = steps;
  if (shared.learningRate !== undefined) out.learningRate = shared.learningRate;
  if (shared.seed !== undefined) out.seed = shared.seed;
  if (shared.saveEvery !== undefined) out.saveEvery = shared.saveEvery;
  if (shared.evalEvery !== undefined) out.evalEvery = shared.evalEvery;
  if (shared.logEvery !== undefined) out.logEvery = shared.logEvery;
  if (shared.batchSize !== undefined) out.promptsPerStep = shared.batchSize;
  if (shared.maxSeqLen !== undefined) out.maxSeqLen = shared.maxSeqLen;
  if (values.task !== undefined) out.task = parseTaskKinds(values.task);
  if (values["num-generations"] !== undefined) out.numGenerations = num("num-generations", values["num-generations"], true, 1);
  if (values["max-new-tokens"] !== undefined) out.maxNewTokens = num("max-new-tokens", values["max-new-tokens"], true, 1);
  if (values.beta !== undefined) out.beta = num("beta", values.beta, false, 0);
  if (values.temperature !== undefined) out.temperature = num("temperature", values.temperature, false, 1e-3);
  if (values["max-kl"] !== undefined) out.maxKl = num("max-kl", values["max-kl"], false, 0);
  if (values["max-minutes"] !== undefined) out.maxMinutes = num("max-minutes", values["max-minutes"], false, 0);
  if (values["loss-type"] !== undefined) {
    if (values["loss-type"] !== "grpo" && values["loss-type"] !== "cispo") throw new TrainError(`--loss-type must be grpo or cispo, got ${JSON.stringify(values["loss-type"])}`, 2);
    out.lossType = values["loss-type"];
  }
  if (values.reward !== undefined) {
    if (!(REWARD_KINDS as readonly string[]).includes(values.reward)) throw new TrainError(`--reward must be one of ${REWARD_KINDS.join(", ")}, got ${JSON.stringify(values.reward)}`, 2);
    out.reward = values.reward as RewardKind;
  }
  return out;
}
