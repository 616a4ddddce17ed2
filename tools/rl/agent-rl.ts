/**
 * The agent run (lib/rl/agent-run.ts, what `npm run train -- agent` runs) with every setting of
 * AgentSettings on the command line, for the measured runs of lesson 26: `npm run train -- agent`
 * takes only the shared options (--steps, --batch-size, --learning-rate, --seed, --save-every,
 * --eval-every, --max-seq-len); this adds the trajectories per task, the KL coefficient, the
 * temperature, the loss and the lengths.
 *
 *   node --import tsx tools/rl/agent-rl.ts --from WEIGHTS [--out runs/agent-rl] [--data FILE] [--config tiny]
 *     [--steps N] [--batch-size N] [--num-generations G] [--learning-rate X] [--beta X] [--temperature T]
 *     [--loss-type cispo|grpo] [--max-new-tokens N] [--max-turns N] [--eval-every N] [--save-every N] [--seed N]
 *     [--use-reference lesson-N,…|all]
 */
import { join, resolve } from "node:path";
import { ROOT } from "../../grader/engine/paths.js";
import { BackendError, initBackend } from "../../lib/backend.js";
import { AGENT_DEFAULTS, runAgent, type AgentSettings } from "../../lib/rl/agent-run.js";
import { TrainError } from "../../lib/train/errors.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";

const USAGE = `usage: node --import tsx tools/rl/agent-rl.ts --from WEIGHTS [--out DIR] [--data FILE] [--config NAME]
  [--steps N] [--batch-size N] [--num-generations G] [--learning-rate X] [--beta X] [--temperature T]
  [--loss-type cispo|grpo] [--max-new-tokens N] [--max-turns N] [--eval-every N] [--save-every N] [--seed N]
  [--use-reference lesson-N,…|all]      (defaults: lib/rl/agent-run.ts's AGENT_DEFAULTS)`;

/** Option → setting, and whether it is a whole number (≥ 1, the seed ≥ 0) or a number (> 0, β ≥ 0). */
const NUMERIC: Record<string, { key: keyof AgentSettings; integer: boolean }> = {
  steps: { key: "steps", integer: true },
  "batch-size": { key: "batchSize", integer: true },
  "num-generations": { key: "numGenerations", integer: true },
  "learning-rate": { key: "learningRate", integer: false },
  beta: { key: "beta", integer: false },
  temperature: { key: "temperature", integer: false },
  "max-new-tokens": { key: "maxNewTokens", integer: true },
  "max-turns": { key: "maxTurns", integer: true },
  "eval-every": { key: "evalEvery", integer: true },
  "save-every": { key: "saveEvery", integer: true },
  seed: { key: "seed", integer: true },
};

function numberOption(name: string, raw: string, integer: boolean): number {
  const n = Number(raw);
  const min = name === "seed" || name === "beta" ? 0 : integer ? 1 : Number.MIN_VALUE;
  if (raw.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min) throw new UsageError(`--${name} must be ${integer ? "a whole number" : "a number"} ${min === Number.MIN_VALUE ? "> 0" : `≥ ${min}`}, got ${JSON.stringify(raw)}`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    from: { type: "string" },
    out: { type: "string" },
    data: { type: "string" },
    config: { type: "string" },
    "loss-type": { type: "string" },
    "use-reference": { type: "string", multiple: true },
    ...Object.fromEntries(Object.keys(NUMERIC).map((k) => [k, { type: "string" as const }])),
  });
  const settings: Partial<AgentSettings> = {};
  for (const [option, { key, integer }] of Object.entries(NUMERIC)) {
    const raw = (values as Record<string, string | undefined>)[option];
    if (raw !== undefined) (settings as Record<string, number>)[key] = numberOption(option, raw, integer);
  }
  const loss = values["loss-type"];
  if (loss !== undefined && loss !== "cispo" && loss !== "grpo") throw new UsageError(`--loss-type must be cispo or grpo, got ${JSON.stringify(loss)}`);
  if (loss !== undefined) settings.loss = loss;
  try {
    await initBackend("wasm");
    const { exitCode } = await runAgent({
      configName: values.config,
      outDir: resolve(values.out ?? join(ROOT, "runs", "agent-rl")),
      fromPath: values.from === undefined ? undefined : resolve(values.from),
      dataPath: values.data === undefined ? undefined : resolve(values.data),
      useReference: (values["use-reference"] ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== ""),
      settings: { ...AGENT_DEFAULTS, ...settings },
    });
    return exitCode;
  } catch (err) {
    if (err instanceof TrainError || err instanceof BackendError) {
      console.error(`agent-rl: ${err.message}`);
      return err instanceof TrainError ? err.exitCode : 2;
    }
    throw err;
  }
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
