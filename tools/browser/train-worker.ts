/**
 * The training page's Web Worker: lab 7's tiny pretraining (labs/lesson-7/) on the backend the page
 * asks for (or the best one, backends.ts), with the lesson functions chosen as lib/resolver.ts
 * chooses them (train-resolve.ts): the learner's passing files compiled by the page, else the
 * published reference, else "finish lesson N first". The model, optimiser and step are lib/'s
 * (MiniMindTS, AdamW, trainStep); the corpus and batches are lab 7's (labs/lesson-7/data.ts), read
 * from the data table the page's build wrote. One `step` message a step; `stop` ends the run
 * after the step in flight; a learner function that never returns is ended by the page
 * terminating this worker.
 */
import * as tf from "../../lib/tf.js";
import { MiniMindTS } from "../../lib/model/model.js";
import type { ModelPieces } from "../../lib/model/pieces.js";
import { AdamW, trainStep } from "../../lib/model/train.js";
import { DeviceAdamW, trainStepOnDevice } from "../../lib/model/train-on-device.js";
import { courseTokenizer } from "../../lib/tokenizer.js";
import { pretrainArgs, pretrainModelConfig, type PretrainFunctions } from "../../labs/lesson-7/config.js";
import { asBatch, batches, loadCorpus } from "../../labs/lesson-7/data.js";
import { startBackend, syncReadProblem } from "./backends.js";
import { functionsForRun } from "./lesson-modules.js";
import { nextTask, postToPage, serveRun, stopRequested } from "./run-worker.js";
import { installFiles } from "./shims/fs.js";
import { trainFunctionHomes } from "./train-plan.js";
import { WARM_UP_STEPS, type PageToTrainWorker, type TrainWorkerToPage } from "./train-protocol.js";

const post = postToPage as (m: TrainWorkerToPage) => void;
serveRun<Extract<PageToTrainWorker, { type: "train" }>>("training", train);

async function train(job: Extract<PageToTrainWorker, { type: "train" }>): Promise<void> {
  installFiles((await (await fetch(job.dataUrl)).json()) as Record<string, string>);
  const choice = job.choice;
  const notStarted = await startBackend(choice.backend, { syncRead: false });
  if (notStarted) return post({ type: "fatal", message: `TensorFlow.js's ${choice.backend} backend did not start in this browser: ${notStarted}` });
  // A GPU backend keeps AdamW on the GPU and reads only the step's scalars, asynchronously (lib/model/train-on-device.ts).
  const onDevice = choice.backend === "webgl" || choice.backend === "webgpu";
  post({ type: "backend", choice, step: onDevice ? "on-device" : "typed-arrays" });

  const s = job.settings;
  const args = pretrainArgs(choice.backend, (name, fallback) => {
    const key = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as keyof typeof s;
    return s[key] ?? fallback;
  });
  const tok = courseTokenizer();
  const config = pretrainModelConfig(args, tok.vocabSize);
  const homes = trainFunctionHomes(config);
  const chosen = await functionsForRun<ModelPieces & PretrainFunctions>(homes as { [K in keyof (ModelPieces & PretrainFunctions)]: string }, job.lessons);
  if ("missing" in chosen) return post({ type: "missing", ...chosen.missing });
  const { fns, whose } = chosen;

  const model = MiniMindTS.init(config, 42, { pieces: fns });
  const corpus = loadCorpus(fns.pretrainSample, args.maxSeqLen);
  post({
    type: "plan",
    whose,
    parameters: model.trainableVariables().reduce((n, v) => n + v.size, 0),
    config: `hidden ${config.hiddenSize}, ${config.numHiddenLayers} layers, ${config.numAttentionHeads} heads over ${config.numKeyValueHeads} kv heads, vocab ${config.vocabSize}; batch ${args.batchSize} × ${args.maxSeqLen} tokens, lr ${args.learningRate}`,
    trainSentences: corpus.train.length,
    heldOutSentences: corpus.heldOut.length,
  });
  const heldOut = asBatch(corpus.heldOut);
  const heldOutLoss = async () => {
    const loss = tf.tidy(() => model.loss(heldOut.inputIds, heldOut.labels).logitsLoss);
    const [value] = await loss.data();
    loss.dispose();
    return value;
  };
  post({ type: "held-out", step: 0, loss: await heldOutLoss() });

  const variables = model.trainableVariables();
  const optimizer = onDevice ? new DeviceAdamW(variables) : new AdamW(variables);
  const t0 = performance.now();
  let warm: number | undefined;
  let step = 0;
  for (const batch of batches(corpus.train, args.batchSize, args.steps, 42)) {
    step++;
    const lr = fns.cosineLr(step, args.steps, args.learningRate);
    const result =
      optimizer instanceof DeviceAdamW
        ? await trainStepOnDevice(model, optimizer, batch.inputIds, batch.labels, lr, fns.clipGradNorm, args.gradClip)
        : trainStep(model, optimizer, batch.inputIds, batch.labels, lr, fns.clipGradNorm, args.gradClip);
    tf.dispose([batch.inputIds, batch.labels]);
    if (step === WARM_UP_STEPS) warm = performance.now();
    post({ type: "step", step, steps: args.steps, loss: result.loss, lr, stepsPerSecond: step / ((performance.now() - t0) / 1000) });
    if (step % job.heldOutEvery === 0 || step === args.steps) post({ type: "held-out", step, loss: await heldOutLoss() });
    // Lets the page's `stop` in.
    await nextTask();
    if (stopRequested()) break;
  }
  const end = performance.now();
  tf.dispose([heldOut.inputIds, heldOut.labels]);
  if (optimizer instanceof DeviceAdamW) optimizer.dispose();
  // Sampling (lesson 12's generate) reads each token with dataSync(). Checked only now: measured
  // here, WebGPU's failed synchronous read leaves its device unable to create buffers.
  const noSyncRead = await syncReadProblem();
  const samples = noSyncRead ? [] : ["The cat", "In winter"].map((prompt) => {
    const ids = tf.tensor2d([[tok.bosId, ...tok.encode(prompt)]], undefined, "int32");
    const out = model.generate(ids, { maxNewTokens: 24, eosTokenId: tok.eosId, pickToken: model.sampler({ seed: 7, temperature: 0.7, topK: 20, topP: 0.9 }) });
    const text = prompt + tok.decode(Array.from(out.dataSync()).slice(ids.shape[1]), { skipSpecialTokens: true });
    tf.dispose([ids, out]);
    return { prompt, text };
  });
  model.dispose();
  const steady = warm !== undefined && step > WARM_UP_STEPS ? (step - WARM_UP_STEPS) / ((end - warm) / 1000) : undefined;
  post({ type: "done", steps: step, seconds: (end - t0) / 1000, steadyStepsPerSecond: steady, stopped: stopRequested(), samples, ...(noSyncRead ? { noSamples: `no samples: generation reads each token with dataSync(), and on ${choice.backend} here ${noSyncRead}` } : {}) });
}
