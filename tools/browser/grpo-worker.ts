/**
 * The GRPO page's Web Worker: `npm run train -- grpo`'s step (lib/rl/algorithms/grpo.ts, in the
 * context lib/rl/context.ts makes for lib/rl/run.ts too) on the sort task, from the shipped start
 * model (lib/model/safetensors.ts), on the backend the page asks for (backends.ts), with the lesson
 * functions chosen as lib/resolver.ts chooses them (train-resolve.ts): the learner's passing files
 * compiled by the page, else the published reference, else "finish lesson N first". The policy
 * trains with lib/'s AdamW; the frozen reference is a second copy of the start. Held-out exact
 * match is lib/rl/evaluate.ts's. One `step` message a step; `stop` ends the run after the step in
 * flight; a learner function that never returns is ended by the page terminating this worker.
 *
 * GRPO's rollouts read the sampled tokens back synchronously (lesson 12's generate, dataSync), so
 * a backend must read synchronously here (wasm, cpu, WebGL; not WebGPU as measured here).
 */
import * as tf from "../../lib/tf.js";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import type { ModelPieces } from "../../lib/model/pieces.js";
import { decodeSafetensors } from "../../lib/model/safetensors.js";
import { AdamW } from "../../lib/model/train.js";
import grpo from "../../lib/rl/algorithms/grpo.js";
import { divergence, promptOrder, rlContext, type CommonFunctions } from "../../lib/rl/context.js";
import { evaluate, type Evaluation } from "../../lib/rl/evaluate.js";
import type { TaskRecord } from "../../lib/rl/task-answers.js";
import { trainTokenizer } from "../../lib/train/tokenizer.js";
import { startBackend } from "./backends.js";
import { grpoFunctionHomes, grpoPageSettings } from "./grpo-plan.js";
import type { GrpoWorkerToPage, PageToGrpoWorker } from "./grpo-protocol.js";
import { functionsForRun } from "./lesson-modules.js";
import { nextTask, postToPage, serveRun, stopRequested } from "./run-worker.js";
import { installFiles } from "./shims/fs.js";
import { WARM_UP_STEPS } from "./train-protocol.js";

const post = postToPage as (m: GrpoWorkerToPage) => void;
serveRun<Extract<PageToGrpoWorker, { type: "grpo" }>>("GRPO", run);

/** What grpo/data.json holds (grpo-build.ts). */
interface GrpoData {
  files: Record<string, string>;
  train: TaskRecord[];
  heldOut: TaskRecord[];
}

async function run(job: Extract<PageToGrpoWorker, { type: "grpo" }>): Promise<void> {
  const data = (await (await fetch(job.dataUrl)).json()) as GrpoData;
  installFiles(data.files);
  const backend = job.choice.backend;
  const notStarted = await startBackend(backend);
  if (notStarted) return post({ type: "fatal", message: `TensorFlow.js's ${backend} backend did not start for GRPO in this browser (GRPO reads back synchronously, so that is checked too): ${notStarted}` });
  post({ type: "backend", choice: job.choice });

  const stored = decodeSafetensors(new Uint8Array(await (await fetch(job.modelUrl)).arrayBuffer()));
  const config = JSON.parse(stored.metadata.config) as MiniMindConfig;
  const settings = grpoPageSettings(job.settings);
  const chosen = await functionsForRun<Record<string, unknown>>(grpoFunctionHomes(config), job.lessons);
  if ("missing" in chosen) return post({ type: "missing", ...chosen.missing });
  const { fns, whose } = chosen;

  // The policy trains; the reference is a frozen copy of the start (lib/rl/run.ts's --from).
  const initial = Object.fromEntries(Object.entries(stored.tensors).map(([n, t]) => [n, tf.tensor(t.data, t.shape, "float32")]));
  const pieces = fns as unknown as ModelPieces;
  const policy = new MiniMindTS(config, initial, { pieces });
  const reference = new MiniMindTS(config, initial, { pieces });
  tf.dispose(Object.values(initial));
  const variables = policy.trainableVariables();
  const tok = trainTokenizer();
  const ctx = rlContext({ tok, settings, policy, reference, optimizer: new AdamW(variables), fns, train: data.train, prompts: promptOrder(data.train, settings.seed), log: () => undefined });
  const held = data.heldOut.slice(0, settings.evalLimit);
  post({
    type: "plan",
    whose,
    parameters: variables.reduce((n, v) => n + v.size, 0),
    config: `hidden ${config.hiddenSize}, ${config.numHiddenLayers} layers, ${config.numAttentionHeads} heads over ${config.numKeyValueHeads} kv heads, vocab ${config.vocabSize}`,
    run: `${settings.promptsPerStep} prompts × G ${settings.numGenerations} a step, ≤ ${settings.maxNewTokens} new tokens at T ${settings.temperature}, lr ${settings.learningRate} on MiniMind's cosine, β ${settings.beta}, ${settings.lossType} loss, reward ${settings.reward}`,
    trainPrompts: data.train.length,
    heldOutPrompts: held.length,
  });
  const measure = (step: number): Evaluation => {
    const e = evaluate(ctx, policy, held);
    post({ type: "held-out", step, accuracy: e.accuracy });
    return e;
  };
  let last = measure(0);

  await grpo.setup?.(ctx);
  const f = fns as unknown as CommonFunctions;
  const t0 = performance.now();
  // Time in the steps only (held-out evaluations between them left out), and from the end of the warm-up steps.
  let stepMs = 0;
  let warm: number | undefined;
  let step = 0;
  let diverged: string | undefined;
  try {
    while (step < settings.steps) {
      step++;
      const lr = f.cosineLr(step, settings.steps, settings.learningRate);
      const s0 = performance.now();
      const m = await grpo.step(ctx, step, lr);
      stepMs += performance.now() - s0;
      if (step === WARM_UP_STEPS) warm = stepMs;
      post({ type: "step", step, steps: settings.steps, loss: m.loss, rewardMean: m.rewardMean, rewardStd: m.rewardStd, accuracy: m.accuracy, klRef: m.klRef, lr, stepsPerSecond: step / (stepMs / 1000) });
      const bad = divergence(m, settings.maxKl);
      if (bad) {
        diverged = `GRPO diverged at step ${step}: ${bad}`;
        break;
      }
      // Lets the page's `stop` in.
      await nextTask();
      if (stopRequested() || step === settings.steps) break;
      if (step % settings.evalEvery === 0) last = measure(step);
    }
  } finally {
    grpo.dispose?.();
  }
  const end = performance.now();
  if (!diverged) last = measure(step);
  policy.dispose();
  reference.dispose();
  const steady = warm !== undefined && step > WARM_UP_STEPS ? (step - WARM_UP_STEPS) / ((stepMs - warm) / 1000) : undefined;
  post({ type: "done", steps: step, seconds: (end - t0) / 1000, stepSeconds: stepMs / 1000, steadyStepsPerSecond: steady, stopped: stopRequested(), ...(diverged ? { diverged } : {}), samples: last.samples });
}
