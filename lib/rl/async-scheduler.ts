/**
 * The deterministic scheduler of the asynchronous RL stage (`npm run train -- async`), in one
 * process and without threads: trainer step t trains weights of version t − 1 (after t − 1 updates)
 * on a batch that a generator sampled with version max(0, t − 1 − K), K the staleness. The last
 * K + 1 versions are kept as plain weight snapshots and loaded into a second model to sample.
 *
 * AReaL runs the generator and the trainer at the same time and bounds how far behind a rollout may
 * start with `max_head_offpolicyness` (areal/api/cli_args.py:2039-2046 @ 4aef98d8); here the two run
 * one after the other, so `modelledAsyncSeconds` works out from the measured per-step times what a
 * system with one generator and one trainer working side by side would need.
 */
import * as tf from "../tf.js";
import type { MiniMindTS } from "../model/model.js";

/** The settings only the async stage reads (merged into RlSettings by cli-options and the stage's defaults). */
export interface AsyncSettings {
  /** K: the trainer's step t learns from a batch sampled by version max(0, t − 1 − K). 0 = synchronous. */
  staleness: number;
  /** Proximal log-probs: "approx" (lesson 30's loglinear stand-in, no extra forward) or "recompute" (a forward of the current weights). */
  proxMethod: "approx" | "recompute";
  /** Lesson 31's M2PO loss mask on (threshold `m2Threshold`). */
  m2po: boolean;
  /** τ of M2PO: AReaL's example examples/math/gsm8k_m2po.yaml:82 sets 0.04. */
  m2Threshold: number;
  /** Upper bound of the behaviour weight π_prox/π_behave; a token above it leaves the loss (AReaL's rejection-sampling default, mask at 5). */
  behaveWeightCap: number;
}

/** The most versions behind a batch may be: K + 1 snapshots of the model are held in memory. */
export const MAX_STALENESS = 32;

/** The version whose weights sample the batch of trainer step `step` (1-based) at staleness `k`. */
export function behaviourVersion(step: number, k: number): number {
  return Math.max(0, step - 1 - k);
}

/** Weight snapshots by version, and a generator model that can be loaded with any of them. */
export class VersionStore {
  private readonly snapshots = new Map<number, Map<string, Float32Array>>();
  private loaded = -1;

  /** `generator` is a model of the policy's shape that this store owns and loads snapshots into. */
  constructor(private readonly generator: MiniMindTS) {}

  /** Stores the weights of `model` as version `version`. */
  save(version: number, model: MiniMindTS): void {
    const copy = new Map<string, Float32Array>();
    for (const [name, v] of Object.entries(model.params)) copy.set(name, Float32Array.from(v.dataSync() as Float32Array));
    this.snapshots.set(version, copy);
  }

  /** Drops every version older than `oldest`. */
  prune(oldest: number): void {
    for (const v of [...this.snapshots.keys()]) if (v < oldest) this.snapshots.delete(v);
  }

  /** Versions held, oldest first. */
  versions(): number[] {
    return [...this.snapshots.keys()].sort((a, b) => a - b);
  }

  /** The generator with version `version` loaded (throws when that version is not held). */
  model(version: number): MiniMindTS {
    if (this.loaded !== version) {
      const snap = this.snapshots.get(version);
      if (!snap) throw new Error(`the scheduler holds no weights of version ${version} (held: ${this.versions().join(", ")})`);
      for (const [name, v] of Object.entries(this.generator.params)) {
        const t = tf.tensor(snap.get(name)!, v.shape, "float32");
        v.assign(t);
        t.dispose();
      }
      this.loaded = version;
    }
    return this.generator;
  }

  dispose(): void {
    this.snapshots.clear();
    this.generator.dispose();
  }
}

/**
 * Seconds a pipeline of one generator and one trainer would need for these steps, from each step's
 * measured generation and training seconds: the generator samples batch t once it has finished
 * batch t − 1 and version max(0, t − 1 − k) exists (training step v produces version v); the
 * trainer trains batch t once it has finished step t − 1 and batch t is generated. k = 0 gives
 * Σ(gen + train); k ≥ 1 gives about gen₁ + Σ max(gen, train), the first generation being the
 * pipeline fill.
 */
export function modelledAsyncSeconds(generation: readonly number[], training: readonly number[], k: number): number {
  if (generation.length !== training.length) throw new Error(`one generation time a training time: ${generation.length} ≠ ${training.length}`);
  const trainEnd = [0];
  let genEnd = 0;
  for (let t = 1; t <= generation.length; t++) {
    genEnd = Math.max(genEnd, trainEnd[behaviourVersion(t, k)]) + generation[t - 1];
    trainEnd.push(Math.max(trainEnd[t - 1], genEnd) + training[t - 1]);
  }
  return trainEnd[generation.length];
}
