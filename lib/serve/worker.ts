/**
 * The generation process of the model server: loads a checkpoint into MiniMindTS with the lesson
 * functions lib/resolver.ts chooses, then runs every generation the server sends it as a row of
 * one continuous batch (lib/serve/batcher.ts), sending each token to the server as soon as it is
 * chosen (MiniMind's TextStreamer queue, scripts/serve_openai_api.py:71-80). Between two decoding
 * steps it reads the server's messages, so a new generation joins at the next step and a cancel
 * (the client went away, or a stop string matched) takes its row out at the next step.
 */
import * as tf from "../tf.js";
import { initBackend } from "../backend.js";
import { loadModel } from "../model/checkpoint.js";
import { resolvePieces } from "../model/pieces.js";
import type { MiniMindTS } from "../model/model.js";
import { argmax, ContinuousBatcher, type BatchJob } from "./batcher.js";
import { tokenLogprobs } from "./logprobs.js";
import type { FromWorker, GenerateJob, ToWorker, WorkerStart } from "./protocol.js";

const send = (m: FromWorker) => process.send?.(m);

/** The row `job` becomes: greedy at temperature 0, else lesson 3's sampler with the job's seed (a new seed each step, as MiniMindTS.sampler). */
function batchJob(model: MiniMindTS, job: GenerateJob): BatchJob {
  const sample = job.temperature > 0 ? model.sampler({ seed: job.seed, temperature: job.temperature, topP: job.topP, topK: job.topK }) : null;
  const V = model.config.vocabSize;
  const pick = sample ? (logits: Float32Array) => tf.tidy(() => sample(tf.tensor2d(logits, [1, V])).dataSync()[0]) : argmax;
  return { id: job.id, promptIds: job.promptIds, maxNewTokens: job.maxNewTokens, pick };
}

async function main(): Promise<void> {
  const start = JSON.parse(process.argv[2] ?? "{}") as WorkerStart;
  const backend = await initBackend("wasm");
  const { pieces, choices } = await resolvePieces({ useReference: start.useReference });
  const model = loadModel(start.checkpoint, { pieces });
  const c = model.config;
  const jobs = new Map<string, GenerateJob>();
  const batcher = new ContinuousBatcher(model, start.maxBatch, {
    token: (id, token, logits) => {
      const job = jobs.get(id);
      send({ type: "token", id, token, logprobs: job && job.logprobs !== null ? tokenLogprobs(logits, token, job.logprobs) : undefined });
    },
    end: (id, reason) => {
      jobs.delete(id);
      send({ type: "done", id, reason });
    },
  });
  send({
    type: "ready",
    // The server decodes with its own batched loop (batcher.ts), not lesson 12's generate.
    choices: choices.filter((ch) => ["rmsNorm", "attention", "ropeFrequencies", c.useMoe ? "moeFeedForward" : "feedForward", "sampleNextToken"].includes(ch.name)),
    config: { vocabSize: c.vocabSize, maxPositionEmbeddings: c.maxPositionEmbeddings, eosTokenId: c.eosTokenId, hiddenSize: c.hiddenSize, numHiddenLayers: c.numHiddenLayers },
    parameters: model.trainableVariables().reduce((n, v) => n + v.size, 0),
    backend,
  });
  let scheduled = false;
  const loop = () => {
    scheduled = false;
    try {
      batcher.step();
    } catch (err) {
      // A failing step (a learner's piece that throws) fails every generation in flight; the process carries on.
      const message = err instanceof Error ? err.message : String(err);
      for (const id of jobs.keys()) send({ type: "error", id, message });
      jobs.clear();
      batcher.reset();
    }
    if (batcher.busy) schedule();
  };
  // setImmediate lets the server's messages in between two steps.
  const schedule = () => {
    if (!scheduled) (scheduled = true), setImmediate(loop);
  };
  process.on("message", (m: ToWorker) => {
    if (m.type === "generate") {
      jobs.set(m.id, m);
      batcher.add(batchJob(model, m));
      schedule();
    } else if (m.type === "cancel") {
      batcher.cancel(m.id);
      schedule();
    }
  });
  process.on("disconnect", () => process.exit(0));
}

main().catch((err: unknown) => {
  send({ type: "fatal", message: err instanceof Error ? err.message : String(err) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 50);
});
