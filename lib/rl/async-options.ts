/**
 * The command-line options of the async stage (`npm run train -- async --staleness K [--m2po]
 * [--m2-threshold X] [--prox approx|recompute]`), checked here; lib/rl/cli-options.ts merges them.
 */
import { TrainError } from "../train/errors.js";
import { MAX_STALENESS, type AsyncSettings } from "./async-scheduler.js";

export const ASYNC_OPTIONS = {
  staleness: { type: "string" as const },
  prox: { type: "string" as const },
  m2po: { type: "boolean" as const },
  "m2-threshold": { type: "string" as const },
};

export const ASYNC_USAGE = `  async only:  --staleness K (0-${MAX_STALENESS}: step t samples with the weights of step t − K; default 0)   --prox approx|recompute (default approx)
               --m2po (lesson 31's mask)   --m2-threshold X (M2PO's τ, default 0.04)`;

const NAMES = ["staleness", "prox", "m2po", "m2-threshold"];

/** The async settings the command line sets; exit 2 for a bad value, or for one of them on another stage. */
export function parseAsyncOptions(values: Record<string, unknown>, stage: string | undefined): Partial<AsyncSettings> {
  const given = NAMES.filter((n) => values[n] !== undefined);
  if (stage !== undefined && stage !== "async") {
    if (given.length) throw new TrainError(`--${given[0]} is an option of the async stage (npm run train -- async …), not of ${stage}`, 2);
    return {};
  }
  if (stage === "async" && values.resume !== undefined) throw new TrainError("the async stage does not resume (its weight snapshots of older versions are not saved): start again with --from", 2);
  const out: Partial<AsyncSettings> = {};
  const staleness = values.staleness as string | undefined;
  if (staleness !== undefined) {
    const k = Number(staleness);
    if (staleness.trim() === "" || !Number.isInteger(k) || k < 0 || k > MAX_STALENESS) throw new TrainError(`--staleness must be an integer from 0 to ${MAX_STALENESS} (versions the sampler lags the trainer), got ${JSON.stringify(staleness)}`, 2);
    out.staleness = k;
  }
  const prox = values.prox as string | undefined;
  if (prox !== undefined) {
    if (prox !== "approx" && prox !== "recompute") throw new TrainError(`--prox must be approx (lesson 30's loglinear stand-in) or recompute (a forward pass), got ${JSON.stringify(prox)}`, 2);
    out.proxMethod = prox;
  }
  if (values.m2po === true) out.m2po = true;
  const tau = values["m2-threshold"] as string | undefined;
  if (tau !== undefined) {
    if (values.m2po !== true) throw new TrainError("--m2-threshold sets M2PO's τ: pass --m2po too", 2);
    const x = Number(tau);
    if (tau.trim() === "" || !Number.isFinite(x) || x <= 0) throw new TrainError(`--m2-threshold must be a number > 0, got ${JSON.stringify(tau)}`, 2);
    out.m2Threshold = x;
  }
  return out;
}
