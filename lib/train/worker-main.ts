/**
 * A gradient worker of a data-parallel run (lib/train/workers.ts): forked by rank 0 with its rank
 * as the only argument. It builds the model from the same lesson functions as rank 0, then answers
 * each batch with the loss and gradients of its part at the weights rank 0 wrote, the gradients
 * written to its own file of the run's all-reduce folder. It holds no optimizer state and writes no
 * other file; it ignores Ctrl-C (rank 0 saves and stops) and exits when rank 0 closes the channel
 * or dies, removing the all-reduce folder (rank 0 cannot when it was killed).
 */
import { initBackend, type BackendName } from "../backend.js";
import { MiniMindTS } from "../model/model.js";
import { resolvePieces } from "../model/pieces.js";
import { updateVariable } from "../model/variable-memory.js";
import { AllReduceFiles, partGradients, type FromWorker, type ToWorker } from "./workers.js";

const rank = Number(process.argv[2]);
/** Answers rank 0; a rank 0 that died while this worker computed gets nothing (the channel is closed). */
const reply = (m: FromWorker) => {
  if (process.connected) process.send!(m);
};
let model: MiniMindTS | undefined;
let files: AllReduceFiles | undefined;

process.on("SIGINT", () => undefined);
process.on("disconnect", () => process.exit(0));
// However the worker ends, the all-reduce folder goes with it (rank 0 removes it too when it can).
process.on("exit", () => files?.remove());

async function handle(m: ToWorker): Promise<void> {
  if (m.type === "init") {
    process.env.COURSE_BACKEND = m.backend;
    await initBackend(m.backend as BackendName);
    const { pieces } = await resolvePieces({ useReference: m.useReference });
    model = MiniMindTS.init(m.config, 0, { pieces });
    files = new AllReduceFiles(m.folder);
    reply({ type: "ready" });
    return;
  }
  const variables = model!.trainableVariables();
  const weights = files!.read(files!.weights, variables.map((v) => v.size));
  variables.forEach((v, i) => updateVariable(v, (values) => values.set(weights[i])));
  const { loss, counted, grads } = partGradients(variables, (ids, labels) => model!.loss(ids, labels).loss, m.part);
  files!.write(files!.grads(rank), grads);
  reply({ type: "grads", id: m.id, loss, counted });
}

process.on("message", (m: ToWorker) => {
  handle(m).catch((err: Error) => reply({ type: "error", message: err.message }));
});
