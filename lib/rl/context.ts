/**
 * What an RL algorithm gets from its loop (`RlContext`), made from a run's parts by `rlContext`:
 * the chat-template prompts, the rewards, the seeded prompt order and the clipped AdamW step. No
 * files and no Node APIs: `npm run train` (lib/rl/run.ts) and the browser's GRPO page
 * (tools/browser/grpo-worker.ts) build their context with it, so both run the same step.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";
import type { ClipGradNorm } from "../model/types.js";
import type { AdamW } from "../model/train.js";
import { decodeText, type TrainTokenizer } from "../train/tokenizer.js";
import { taskReward, type RewardFunctions } from "./rewards.js";
import type { RlSettings } from "./settings.js";
import type { TaskRecord } from "./task-answers.js";
import { policyGradientsHere, type PolicyBatch, type PolicyLogpsFunctions, type PolicyLoss, type PolicyStep } from "./policy-batch.js";

/** What an algorithm gets from the loop. */
export interface RlContext {
  tok: TrainTokenizer;
  settings: RlSettings;
  policy: MiniMindTS;
  reference: MiniMindTS;
  /** AdamW over the policy's parameters. */
  optimizer: AdamW;
  /** Every lesson function the run resolved, by name. */
  fns: Record<string, unknown>;
  train: TaskRecord[];
  /** The chat-template token ids of a task's question (lesson 4's renderChat, generation prompt on). */
  promptIds(t: TaskRecord): number[];
  decode(ids: number[]): string;
  /** Rewards of `texts`, answering `records` (one record a text). */
  rewards(texts: readonly string[], records: readonly TaskRecord[]): number[];
  /** The next `n` training prompts of a seeded order, epoch after epoch. */
  nextPrompts(n: number): TaskRecord[];
  /**
   * The policy update's loss and gradient (lib/rl/policy-batch.ts): `lossOf` of the policy's
   * log-probs of `batch`, differentiated with respect to the policy's trainable variables, in this
   * process or split across a data-parallel run's workers (--workers). Nothing is applied.
   */
  policyGradients(batch: PolicyBatch, lossOf: PolicyLoss): Promise<PolicyStep>;
  /** Clips `grads` (lesson 14's clipGradNorm) and applies one AdamW step to `optimizer`. */
  applyGrads(optimizer: AdamW, grads: tf.Tensor[], lr: number): number;
  log(line: string): void;
}

/** The lesson functions every RL run calls besides its algorithm's (name → lesson); the model's pieces come on top. */
export const COMMON_FUNCTIONS: Record<string, string> = {
  cosineLr: "lesson-14",
  clipGradNorm: "lesson-14",
  renderChat: "lesson-4",
  perTokenLogps: "lesson-25",
  approxKl: "lesson-25",
  clipFraction: "lesson-25",
  repetitionPenalty: "lesson-25",
  ruleReward: "lesson-25",
};

/** COMMON_FUNCTIONS' lesson 14 and lesson 4 functions, typed. */
export type CommonFunctions = {
  cosineLr: (step: number, total: number, lr: number) => number;
  clipGradNorm: ClipGradNorm;
  renderChat: (messages: Array<{ role: string; content: string }>, opts?: { addGenerationPrompt?: boolean }) => string;
};

/** Where a prompt order stands: the epoch (how many shuffles were drawn) and the prompts taken from the current one. */
export interface PromptPosition {
  cursor: number;
  epoch: number;
}

/** Indices 0 … n−1 shuffled by an LCG seeded with `seed` (Fisher-Yates from the end). */
function shuffle(n: number, seed: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  let s = seed >>> 0;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx;
}

/**
 * The training prompts in a seeded order, epoch after epoch: epoch e's shuffle is seeded by
 * seed + e, so a resume at `from` rebuilds the order it was in.
 */
export function promptOrder(records: readonly TaskRecord[], seed: number, from: PromptPosition = { cursor: 0, epoch: 0 }) {
  let { cursor, epoch } = from;
  let order: number[] = epoch > 0 ? shuffle(records.length, seed + epoch - 1) : [];
  return {
    next(n: number): TaskRecord[] {
      const out: TaskRecord[] = [];
      while (out.length < n) {
        if (cursor >= order.length) {
          order = shuffle(records.length, seed + epoch++);
          cursor = 0;
        }
        out.push(records[order[cursor++]]);
      }
      return out;
    },
    position: (): PromptPosition => ({ cursor, epoch }),
  };
}

/** A run's parts, as its loop made them: RlContext's own fields, and the prompt order the run takes its prompts from (`promptOrder`). */
export type RlParts = Pick<RlContext, "tok" | "settings" | "policy" | "reference" | "optimizer" | "fns" | "train" | "log"> & {
  prompts: { next(n: number): TaskRecord[] };
  /** The policy update across workers (lib/rl/policy-workers.ts); without it, in this process. */
  policyGradients?: RlContext["policyGradients"];
};

/** The context an algorithm's step runs in (see `RlContext`), over `parts`. */
export function rlContext(parts: RlParts): RlContext {
  const { tok, settings, fns } = parts;
  const f = fns as unknown as CommonFunctions;
  const rewardFns = fns as unknown as RewardFunctions;
  return {
    tok,
    settings,
    policy: parts.policy,
    reference: parts.reference,
    optimizer: parts.optimizer,
    fns,
    train: parts.train,
    promptIds: (t) => tok.encode(f.renderChat([{ role: "user", content: t.question }], { addGenerationPrompt: true })),
    decode: (ids) => decodeText(tok, ids),
    rewards: (texts, records) => texts.map((t, i) => taskReward(settings.reward, rewardFns, t, records[i].answer)),
    nextPrompts: (n) => parts.prompts.next(n),
    policyGradients: parts.policyGradients ?? (async (batch, lossOf) => policyGradientsHere(parts.policy, fns as PolicyLogpsFunctions, batch, parts.policy.trainableVariables(), lossOf)),
    applyGrads(opt, grads, lr) {
      const clipped = f.clipGradNorm(grads, settings.gradClip);
      const arrays = clipped.grads.map((g) => Float32Array.from(g.dataSync() as Float32Array));
      const norm = clipped.totalNorm.dataSync()[0];
      tf.dispose([...clipped.grads, clipped.totalNorm]);
      opt.step(arrays, lr);
      return norm;
    },
    log: parts.log,
  };
}

/** Why a step's metrics stop the run (a NaN/Inf loss or KL, or a KL to the reference above `maxKl`: --max-kl), or null when they do not. */
export function divergence(m: { loss: number; klRef: number }, maxKl: number): string | null {
  if (!Number.isFinite(m.loss)) return `the loss is ${m.loss}`;
  if (!Number.isFinite(m.klRef)) return `the KL to the reference is ${m.klRef}`;
  return m.klRef > maxKl ? `the KL to the reference is ${m.klRef.toFixed(3)} > ${maxKl} (--max-kl)` : null;
}
