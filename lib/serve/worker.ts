/**
 * The generation process of the model server: loads a checkpoint into MiniMindTS with the lesson
 * functions lib/resolver.ts chooses, then runs one generation at a time, sending every token to
 * the server as soon as it is chosen (MiniMind's TextStreamer queue, scripts/serve_openai_api.py:71-80).
 *
 * A generation stops at EOS, at its token budget, or when the server has left a cancel mark for
 * it (the client went away, or a stop string matched): the mark is checked before each token.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../tf.js";
import { initBackend } from "../backend.js";
import { loadModel } from "../model/checkpoint.js";
import { resolvePieces } from "../model/pieces.js";
import type { MiniMindTS } from "../model/model.js";
import { tokenLogprobs } from "./logprobs.js";
import type { FromWorker, GenerateJob, WorkerStart } from "./protocol.js";

const send = (m: FromWorker) => process.send?.(m);

class Cancelled extends Error {}

/** Runs `job` with lesson 12's generate and lesson 3's sampler (greedy at temperature 0). */
function run(model: MiniMindTS, job: GenerateJob, cancelDir: string): void {
  const mark = join(cancelDir, job.id);
  const sample = job.temperature > 0 ? model.sampler({ seed: job.seed, temperature: job.temperature, topP: job.topP, topK: job.topK }) : null;
  let produced = 0;
  let lastToken = -1;
  const pickToken = (lastLogits: tf.Tensor2D): tf.Tensor1D => {
    if (existsSync(mark)) throw new Cancelled();
    const chosen = sample ? sample(lastLogits) : (tf.argMax(lastLogits, -1) as tf.Tensor1D);
    lastToken = chosen.dataSync()[0];
    produced++;
    const logprobs = job.logprobs === null ? undefined : tokenLogprobs(lastLogits.dataSync() as Float32Array, lastToken, job.logprobs);
    send({ type: "token", id: job.id, token: lastToken, logprobs });
    return chosen;
  };
  try {
    // tf.tidy frees what generate holds even when a cancel interrupts it.
    tf.tidy(() => {
      const ids = tf.tensor2d([job.promptIds], undefined, "int32");
      model.generate(ids, { maxNewTokens: job.maxNewTokens, eosTokenId: model.config.eosTokenId, pickToken, useCache: true });
    });
    send({ type: "done", id: job.id, reason: lastToken === model.config.eosTokenId ? "eos" : produced >= job.maxNewTokens ? "length" : "eos" });
  } catch (err) {
    if (err instanceof Cancelled) send({ type: "done", id: job.id, reason: "cancelled" });
    else send({ type: "error", id: job.id, message: err instanceof Error ? err.message : String(err) });
  }
}

async function main(): Promise<void> {
  const start = JSON.parse(process.argv[2] ?? "{}") as WorkerStart;
  const backend = await initBackend("wasm");
  const { pieces, choices } = await resolvePieces({ useReference: start.useReference });
  const model = loadModel(start.checkpoint, { pieces });
  const c = model.config;
  send({
    type: "ready",
    choices: choices.filter((ch) => ["rmsNorm", "attention", "ropeFrequencies", c.useMoe ? "moeFeedForward" : "feedForward", "generate", "sampleNextToken"].includes(ch.name)),
    config: { vocabSize: c.vocabSize, maxPositionEmbeddings: c.maxPositionEmbeddings, eosTokenId: c.eosTokenId, hiddenSize: c.hiddenSize, numHiddenLayers: c.numHiddenLayers },
    parameters: model.trainableVariables().reduce((n, v) => n + v.size, 0),
    backend,
  });
  process.on("message", (m: GenerateJob) => {
    if (m.type === "generate") run(model, m, start.cancelDir);
  });
  process.on("disconnect", () => process.exit(0));
}

main().catch((err: unknown) => {
  send({ type: "fatal", message: err instanceof Error ? err.message : String(err) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 50);
});
