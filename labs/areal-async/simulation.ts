/**
 * A seeded, single-threaded simulation of AReaL's asynchronous rollout loop on a virtual clock.
 *
 * Rollout workers decode a few tokens per tick; a trainer consumes a batch whenever one is ready
 * and publishes a new policy version when its step ends. New rollouts are admitted by AReaL's
 * staleness rule (areal/infra/staleness_manager.py:79-113):
 *   capacity = min(maxConcurrent − running, (η + version + 1)·B − (accepted + running)),
 * with η = max_head_offpolicyness (areal/api/cli_args.py:2039-2046). A weight update lands while
 * answers are still being decoded, so every token records the version that produced it, and one
 * answer can carry several versions (areal/infra/remote_inf_engine.py:784-840).
 */
import { Rng } from "../../lib/random.js";

export interface AsyncConfig {
  /** consumer_batch_size B: samples per training step. */
  batchSize: number;
  /** max_concurrent_rollouts: answers decoded at once. */
  maxConcurrent: number;
  /** max_head_offpolicyness η: how many versions ahead generation may run. */
  maxHeadOffpolicyness: number;
  /** Training steps to simulate. */
  trainSteps: number;
  /** Longest answer, in tokens (the padded width T). */
  maxNewTokens: number;
  /** Shortest answer, in tokens. */
  minNewTokens: number;
  /** Tokens one running rollout decodes per tick. */
  tokensPerTick: number;
  /** Ticks one training step takes. */
  trainTicks: number;
  seed: number;
}

/** One finished answer. */
export interface Sample {
  id: number;
  /** The policy version that produced each of its tokens. */
  versions: number[];
  submittedAt: number;
  finishedAt: number;
  /** 0/1 task reward (seeded). */
  reward: number;
}

/** One training step: the weights it starts from are version `step`; it publishes `step + 1`. */
export interface TrainStep {
  step: number;
  startedAt: number;
  samples: Sample[];
}

export interface SimulationResult {
  config: AsyncConfig;
  steps: TrainStep[];
  /** Tick at which the last step finished. */
  totalTicks: number;
  /** Ticks the trainer spent training. */
  trainerBusyTicks: number;
  /** Ticks with at least one rollout decoding. */
  generatorBusyTicks: number;
}

interface Rollout {
  id: number;
  length: number;
  versions: number[];
  submittedAt: number;
}

/** Admission control: AReaL's StalenessManager.get_capacity, in one line. */
export function rolloutCapacity(config: AsyncConfig, version: number, running: number, accepted: number): number {
  const concurrency = Math.max(1, config.maxConcurrent) - running;
  const staleness = (config.maxHeadOffpolicyness + version + 1) * Math.max(1, config.batchSize) - (accepted + running);
  return Math.min(concurrency, staleness);
}

/** Runs the loop tick by tick until `trainSteps` steps have finished. */
export function simulate(config: AsyncConfig): SimulationResult {
  const rng = new Rng(config.seed);
  let running: Rollout[] = [];
  const finished: Sample[] = [];
  const steps: TrainStep[] = [];
  let version = 0;
  let accepted = 0;
  let nextId = 0;
  let trainingUntil = -1;
  let trainerBusyTicks = 0;
  let generatorBusyTicks = 0;
  let tick = 0;

  for (; ; tick++) {
    // 1. A step that ends now publishes its weights: every later token is the new version.
    if (tick === trainingUntil) {
      version++;
      trainingUntil = -1;
      if (steps.length === config.trainSteps) break;
    }
    // 2. An idle trainer takes the B oldest finished answers.
    if (trainingUntil < 0 && finished.length >= config.batchSize && steps.length < config.trainSteps) {
      steps.push({ step: version, startedAt: tick, samples: finished.splice(0, config.batchSize) });
      trainingUntil = tick + config.trainTicks;
    }
    if (trainingUntil >= 0) trainerBusyTicks++;
    // 3. Admit as many new rollouts as the staleness rule allows.
    for (let free = rolloutCapacity(config, version, running.length, accepted); free > 0; free--) {
      running.push({ id: nextId++, length: rng.int(config.minNewTokens, config.maxNewTokens), versions: [], submittedAt: tick });
    }
    // 4. Every running rollout decodes a few tokens with the weights of this tick.
    if (running.length > 0) generatorBusyTicks++;
    for (const r of running) {
      const n = Math.min(config.tokensPerTick, r.length - r.versions.length);
      for (let k = 0; k < n; k++) r.versions.push(version);
    }
    for (const r of running.filter((x) => x.versions.length === x.length)) {
      accepted++;
      finished.push({ id: r.id, versions: r.versions, submittedAt: r.submittedAt, finishedAt: tick, reward: rng.next() < 0.5 ? 1 : 0 });
    }
    running = running.filter((x) => x.versions.length < x.length);
  }
  return { config, steps, totalTicks: tick, trainerBusyTicks, generatorBusyTicks };
}
