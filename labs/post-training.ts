/**
 * What the post-training labs (16-20) share: the tiny corpus as samples, seeded batches, held-out
 * loss, greedy continuations, and a small pretrained base model built once and cached in the
 * lab's out/ folder (a learner who has run `npm run train -- pretrain` can pass `--base <file>`).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../lib/tf.js";
import { miniMindConfig, type MiniMindConfig } from "../lib/model/config.js";
import { MiniMindTS, type ModelOptions } from "../lib/model/model.js";
import { AdamW, trainStep } from "../lib/model/train.js";
import type { ClipGradNorm } from "../lib/model/types.js";
import { loadModel, saveModel } from "../lib/model/checkpoint.js";
import { ROOT } from "../grader/engine/paths.js";
import { resolveFunctions } from "../lib/resolver.js";
import { asSample, epochOrder, pickText, readRecords, splitHeldOut, type PretrainSample, type Sample } from "../lib/train/data.js";
import { courseTokenizer, type TrainTokenizer } from "../lib/train/tokenizer.js";

export const CORPUS = join(ROOT, "datasets", "tiny-corpus.txt");
/** Where the shared base model is cached (git-ignored, like every lab's out/). */
export const BASE_DIR = join(ROOT, "labs", "lesson-16", "out");
export const tok: TrainTokenizer = courseTokenizer();

/** The tiny preset's model (lib/train/settings.ts) with the byte vocabulary; `over` changes it. */
export function labConfig(over: Partial<MiniMindConfig> = {}): MiniMindConfig {
  return miniMindConfig({ vocabSize: tok.vocabSize, hiddenSize: 128, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 128, ...over });
}

/** The corpus' sentences, one in eight held out (the split lab 7 and `npm run train` use). */
export function corpusSentences(): { train: string[]; heldOut: string[] } {
  return splitHeldOut(readRecords(CORPUS, pickText).records.map((r) => r.text), 8);
}

type CosineLr = (step: number, total: number, lr: number) => number;
/** Lesson 6's `pretrainSample` and lesson 14's `cosineLr` and `clipGradNorm`, through the resolver (yours once they pass); all named at once when missing. */
const lessonFns = await resolveFunctions<{ pretrainSample: PretrainSample; cosineLr: CosineLr; clipGradNorm: ClipGradNorm }>({
  pretrainSample: "lesson-6",
  cosineLr: "lesson-14",
  clipGradNorm: "lesson-14",
});

/** MiniMind's gradient clipping: lesson 14's `clipGradNorm`, through the resolver (yours once it passes). */
export const clipGradNorm: ClipGradNorm = (grads, maxNorm) => lessonFns.fns.clipGradNorm(grads, maxNorm);
for (const c of lessonFns.choices) console.log(`${c.name} (${c.lesson}): ${c.source === "exercises" ? "yours" : "reference"} (${c.why})`);

/** Pretraining samples of `texts` by lesson 6's rule: [BOS] text [EOS], padded, −100 on padding. */
export function samplesOf(texts: readonly string[], maxLen: number): Sample[] {
  return texts.map((t) => asSample(lessonFns.fns.pretrainSample(t, tok, maxLen)));
}

/** Samples stacked into [N, T] tensors. */
export function stack(samples: readonly Sample[]): { ids: tf.Tensor2D; labels: tf.Tensor2D } {
  const T = samples[0].inputIds.length;
  const ids = new Int32Array(samples.length * T);
  const labels = new Int32Array(samples.length * T);
  samples.forEach((s, i) => {
    ids.set(s.inputIds, i * T);
    labels.set(s.labels, i * T);
  });
  return { ids: tf.tensor2d(ids, [samples.length, T], "int32"), labels: tf.tensor2d(labels, [samples.length, T], "int32") };
}

/** `steps` batches of `batchSize`, walking seeded epoch permutations (MiniMind's randperm per epoch). */
export function* batches(samples: readonly Sample[], batchSize: number, steps: number, seed: number): Generator<{ ids: tf.Tensor2D; labels: tf.Tensor2D }> {
  let epoch = 0;
  let order = epochOrder(samples.length, seed, epoch);
  let at = 0;
  for (let s = 0; s < steps; s++) {
    const pick: Sample[] = [];
    while (pick.length < batchSize) {
      if (at === order.length) [order, at] = [epochOrder(samples.length, seed, ++epoch), 0];
      pick.push(samples[order[at++]]);
    }
    yield stack(pick);
  }
}

/** Mean next-token cross-entropy of `model` over `samples` (labels −100 ignored). */
export function heldOutLoss(model: MiniMindTS, samples: readonly Sample[]): number {
  const { ids, labels } = stack(samples);
  try {
    return tf.tidy(() => model.loss(ids, labels).logitsLoss.dataSync()[0]);
  } finally {
    tf.dispose([ids, labels]);
  }
}

/** Greedy continuation of `prompt` (after BOS) up to EOS or `maxNew` tokens, as text. */
export function continueText(model: MiniMindTS, prompt: string, maxNew: number): string {
  const ids = tf.tensor2d([[tok.bosId, ...tok.encode(prompt)]], undefined, "int32");
  const out = model.generate(ids, { maxNewTokens: maxNew, eosTokenId: tok.eosId });
  const text = tok.decode(Array.from(out.dataSync()).slice(ids.shape[1]));
  tf.dispose([ids, out]);
  return text;
}


/** MiniMind's cosine schedule: lesson 14's `cosineLr`, through the resolver (yours once it passes). */
export const scheduleLr: CosineLr = lessonFns.fns.cosineLr;

/** "12.3 s" / "2.1 min". */
export function seconds(ms: number): string {
  return ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

export interface BaseOptions {
  outDir: string;
  config: MiniMindConfig;
  steps: number;
  /** `--base <file>`: use that checkpoint instead. */
  path?: string;
  modelOptions?: ModelOptions;
  log: (line: string) => void;
}

/**
 * A pretrained base model: `path` when given, else a cached checkpoint in `outDir`, else a fresh
 * pretraining run on the corpus' training sentences (batch 16 × 64, lr 3e-3 cosine), saved there.
 */
export function pretrainedBase(o: BaseOptions): { model: MiniMindTS; path: string; trainedNow: boolean } {
  const path = o.path ?? join(o.outDir, `pretrain_${o.config.hiddenSize}x${o.config.numHiddenLayers}_${o.steps}.safetensors`);
  if (existsSync(path)) return { model: loadModel(path, o.modelOptions ?? {}), path, trainedNow: false };
  if (o.path) throw new Error(`no checkpoint at ${o.path}`);
  mkdirSync(o.outDir, { recursive: true });
  o.log(`Pretraining the base model first (${o.steps} steps; cached in ${path.replace(`${ROOT}/`, "")} for next time)…`);
  const model = MiniMindTS.init(o.config, 42, o.modelOptions ?? {});
  const optimizer = new AdamW(model.trainableVariables());
  const started = performance.now();
  let s = 0;
  for (const b of batches(samplesOf(corpusSentences().train, 64), 16, o.steps, 42)) {
    const r = trainStep(model, optimizer, b.ids, b.labels, scheduleLr(++s, o.steps, 3e-3), clipGradNorm);
    tf.dispose([b.ids, b.labels]);
    if (s % 50 === 0 || s === o.steps) o.log(`  pretrain step ${s}/${o.steps}  loss ${r.loss.toFixed(3)}  (${seconds(performance.now() - started)})`);
  }
  saveModel(model, path);
  return { model, path, trainedNow: true };
}

/** The value after `--name` in `args`, else `fallback`. */
export function argValue(args: readonly string[], name: string, fallback: string): string;
export function argValue(args: readonly string[], name: string, fallback?: string): string | undefined;
export function argValue(args: readonly string[], name: string, fallback?: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}
