/**
 * Lab 7's data: the tiny corpus as MiniMind pretraining samples, shuffled batches, and a
 * progress bar.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { ROOT } from "../../grader/engine/paths.js";
import { Rng } from "../../lib/random.js";
import { courseTokenizer } from "../../lib/tokenizer.js";
import type { PretrainSample } from "../../lib/train/data.js";

export interface Sample {
  inputIds: number[];
  labels: number[];
}


export interface Corpus {
  /** The sentences trained on, as samples. */
  train: Sample[];
  /** Every `heldOutEvery`-th sentence, never trained on: the loss there says what generalises. */
  heldOut: Sample[];
  /** The held-out sentences' text. */
  heldOutText: string[];
  bytes: number;
}

/**
 * The non-empty lines of datasets/tiny-corpus.txt as samples of lesson 6's `pretrainSample` (the
 * course tokenizer), split: line i is held out when i mod heldOutEvery = heldOutEvery − 1 (one in
 * eight by default), trained on otherwise.
 */
export function loadCorpus(pretrainSample: PretrainSample, maxLength: number, heldOutEvery = 8): Corpus {
  const tok = courseTokenizer();
  const text = readFileSync(join(ROOT, "datasets", "tiny-corpus.txt"), "utf8");
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const held = (i: number) => i % heldOutEvery === heldOutEvery - 1;
  return {
    train: lines.filter((_, i) => !held(i)).map((line) => pretrainSample(line, tok, maxLength)),
    heldOut: lines.filter((_, i) => held(i)).map((line) => pretrainSample(line, tok, maxLength)),
    heldOutText: lines.filter((_, i) => held(i)),
    bytes: Buffer.byteLength(text),
  };
}

/** All of `samples` as one batch of [B, L] int32 tensors. */
export function asBatch(samples: Sample[]): { inputIds: tf.Tensor2D; labels: tf.Tensor2D } {
  return {
    inputIds: tf.tensor2d(samples.map((s) => s.inputIds), undefined, "int32"),
    labels: tf.tensor2d(samples.map((s) => s.labels), undefined, "int32"),
  };
}

/** `steps` batches of `batchSize` samples, reshuffled (seeded) every epoch, as [B, L] int32 tensors. */
export function* batches(samples: Sample[], batchSize: number, steps: number, seed: number): Generator<{ inputIds: tf.Tensor2D; labels: tf.Tensor2D }> {
  const rng = new Rng(seed);
  let order: number[] = [];
  for (let step = 0; step < steps; step++) {
    if (order.length < batchSize) {
      const epoch = samples.map((_, i) => i);
      for (let i = epoch.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [epoch[i], epoch[j]] = [epoch[j], epoch[i]];
      }
      order = [...order, ...epoch];
    }
    const chosen = order.splice(0, batchSize).map((i) => samples[i]);
    yield {
      inputIds: tf.tensor2d(chosen.map((s) => s.inputIds), undefined, "int32"),
      labels: tf.tensor2d(chosen.map((s) => s.labels), undefined, "int32"),
    };
  }
}

/** [#######.............] for `done` of `total`. */
export function progressBar(done: number, total: number, width = 24): string {
  const filled = Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
}
