/**
 * A gradient worker of a data-parallel run (lib/train/workers.ts): forked by rank 0 with its rank
 * as the only argument. It builds the model from the same lesson functions as rank 0, then answers
 * each batch with the loss and gradients of its part at the weights rank 0 wrote, the gradients
 * written to its own file of the run's all-reduce folder. In an RL run it answers the two passes of
 * a split policy update instead (lib/rl/policy-workers.ts): `logps`, its rows' log-probs at the
 * weights rank 0 wrote, then `vjp`, the gradient of those rows' share of the loss. It holds no optimizer state and writes no
 * other file; it ignores Ctrl-C (rank 0 saves and stops) and exits when rank 0 closes the channel
 * or dies, removing the all-reduce folder (rank 0 cannot when it was killed).
 */
import { initBackend, type BackendName } from "../backend.js";
import { MiniMindTS } from "../model/model.js";
import { PIECE_HOMES, resolveRun, type PieceName } from "../model/pieces.js";
import { rowsLogps, rowsVectorJacobian, type PolicyLogpsFunctions, type PolicyRows } from "../rl/policy-batch.js";
import { updateVariable } from "../model/variable-memory.js";
import { AllReduceFiles, partGradients, type FromWorker, type ToWorker } from "./workers.js";

const rank = Number(process.argv[2]);
/** Answers rank 0; a rank 0 that died while this worker computed gets nothing (the channel is closed). */
const reply = (m: FromWorker) => {
  if (process.connected) process.send!(m);
};
let model: MiniMindTS | undefined;
let files: AllReduceFiles | undefined;
let policyFns: PolicyLogpsFunctions = {};
/** The rows of the last `logps` request: its `vjp` differentiates the same rows. */
let lastRows: PolicyRows | undefined;

process.on("SIGINT", () => undefined);
process.on("disconnect", () => process.exit(0));
// However the worker ends, the all-reduce folder goes with it (rank 0 removes it too when it can).
process.on("exit", () => files?.remove());

/** Loads the weights rank 0 wrote into this worker's model; returns its trainable variables. */
function loadWeights() {
  const variables = model!.trainableVariables();
  const weights = files!.read(files!.weights, variables.map((v) => v.size));
  variables.forEach((v, i) => updateVariable(v, (values) => values.set(weights[i])));
  return variables;
}

async function handle(m: ToWorker): Promise<void> {
  if (m.type === "init") {
    process.env.COURSE_BACKEND = m.backend;
    await initBackend(m.backend as BackendName);
    const { pieces, fns } = await resolveRun<Record<string, unknown>>(Object.keys(PIECE_HOMES) as PieceName[], m.policyFunctions ?? {}, { useReference: m.useReference });
    policyFns = fns as PolicyLogpsFunctions;
    model = MiniMindTS.init(m.config, 0, { pieces });
    files = new AllReduceFiles(m.folder);
    reply({ type: "ready" });
    return;
  }
  if (m.type === "logps") {
    loadWeights();
    lastRows = m.rows;
    reply({ type: "logps", id: m.id, values: rowsLogps(model!, policyFns, m.rows) });
    return;
  }
  if (m.type === "vjp") {
    if (!lastRows) throw new Error("a vjp request came before its logps request");
    files!.write(files!.grads(rank), rowsVectorJacobian(model!, policyFns, lastRows, m.upstream, model!.trainableVariables()));
    reply({ type: "vjp", id: m.id });
    return;
  }
  const variables = loadWeights();
  const { loss, counted, grads } = partGradients(variables, (ids, labels) => model!.loss(ids, labels).loss, m.part);
  files!.write(files!.grads(rank), grads);
  reply({ type: "grads", id: m.id, loss, counted });
}

process.on("message", (m: ToWorker) => {
  handle(m).catch((err: Error) => reply({ type: "error", message: err.message }));
});
