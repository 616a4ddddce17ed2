/**
 * A gradient worker of a data-parallel run (lib/train/workers.ts): forked by rank 0 with its rank
 * as the only argument. It builds the model from the same lesson functions as rank 0, then answers
 * each batch with the loss and gradients of its part at the weights it was sent. It holds no
 * optimizer state and writes no file; it ignores Ctrl-C (rank 0 saves and stops) and exits when
 * rank 0 closes the channel or dies.
 */
import { initBackend, type BackendName } from "../backend.js";
import { MiniMindTS } from "../model/model.js";
import { resolvePieces } from "../model/pieces.js";
import { updateVariable } from "../model/variable-memory.js";
import { partGradients, type FromWorker, type ToWorker } from "./workers.js";

process.on("SIGINT", () => undefined);
process.on("disconnect", () => process.exit(0));

const reply = (m: FromWorker) => process.send!(m);
let model: MiniMindTS | undefined;

async function handle(m: ToWorker): Promise<void> {
  if (m.type === "init") {
    process.env.COURSE_BACKEND = m.backend;
    await initBackend(m.backend as BackendName);
    const { pieces } = await resolvePieces({ useReference: m.useReference });
    model = MiniMindTS.init(m.config, 0, { pieces });
    reply({ type: "ready" });
    return;
  }
  const variables = model!.trainableVariables();
  variables.forEach((v, i) => updateVariable(v, (values) => values.set(m.weights[i])));
  reply({ type: "grads", id: m.id, ...partGradients(variables, (ids, labels) => model!.loss(ids, labels).loss, m.part) });
}

process.on("message", (m: ToWorker) => {
  handle(m).catch((err: Error) => reply({ type: "error", message: err.message }));
});
