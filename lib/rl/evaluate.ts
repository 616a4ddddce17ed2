/**
 * Held-out exact match of the RL runs: greedy answers to task prompts, batched by prompt length so
 * nothing is left-padded, by kind and on the prompts that are not also in the training file. No
 * files: lib/rl/run.ts, tools/rl/eval.ts and the browser's GRPO page measure with it.
 */
import type { MiniMindTS } from "../model/model.js";
import type { RlContext } from "./context.js";
import { sampleCompletions } from "./rollout.js";
import { exactMatch, type TaskRecord } from "./task-answers.js";

export interface Evaluation {
  accuracy: number;
  /** Accuracy on the held-out prompts whose question is not also in the training file (null: none). */
  unseenAccuracy: number | null;
  unseen: number;
  byKind: Record<string, { correct: number; total: number }>;
  samples: Array<{ question: string; answer: string; response: string }>;
}

/**
 * Batches of at most 64 records whose prompts have the same token length: no left padding, so a
 * prompt's answer does not depend on what it was batched with (the model takes positions from the
 * padded start, as MiniMind's does, and SFT never saw padding on the left).
 */
function sameLengthBatches(ctx: RlContext, records: readonly TaskRecord[]): TaskRecord[][] {
  const byLength = new Map<number, TaskRecord[]>();
  for (const r of records) {
    const n = ctx.promptIds(r).length;
    byLength.set(n, [...(byLength.get(n) ?? []), r]);
  }
  return [...byLength.values()].flatMap((group) => Array.from({ length: Math.ceil(group.length / 64) }, (_, i) => group.slice(i * 64, i * 64 + 64)));
}

/** Exact-match accuracy of greedy answers to `records`. */
export function evaluate(ctx: RlContext, model: MiniMindTS, records: readonly TaskRecord[]): Evaluation {
  const byKind: Evaluation["byKind"] = {};
  const samples: Evaluation["samples"] = [];
  const trained = new Set(ctx.train.map((t) => t.question));
  let correct = 0;
  let unseen = 0;
  let unseenCorrect = 0;
  for (const batch of sameLengthBatches(ctx, records)) {
    const s = sampleCompletions(model, batch.map((r) => ctx.promptIds(r)), (ids) => ctx.decode(ids), {
      numGenerations: 1,
      maxNewTokens: ctx.settings.maxNewTokens,
      temperature: 1,
      seed: 0,
      eosId: ctx.tok.eosId,
      padId: ctx.tok.padId,
      greedy: true,
    });
    batch.forEach((r, j) => {
      const ok = exactMatch(s.texts[j], r.answer);
      correct += ok;
      if (!trained.has(r.question)) {
        unseen++;
        unseenCorrect += ok;
      }
      const k = (byKind[r.kind] ??= { correct: 0, total: 0 });
      k.correct += ok;
      k.total++;
      if (samples.length < 6 && j % 11 === 0) samples.push({ question: r.question, answer: r.answer, response: s.texts[j] });
    });
  }
  return { accuracy: records.length ? correct / records.length : 0, unseenAccuracy: unseen ? unseenCorrect / unseen : null, unseen, byKind, samples };
}
