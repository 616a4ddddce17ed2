/**
 * npm run train -- <stage> [--config tiny|small|micro] [--steps N] [--workers N] [--resume DIR] [--out DIR]
 *                          [--data FILE] [--from WEIGHTS] [--use-reference lesson-N,…|all] [settings]
 *
 * A thin entry over lib/train/: parses the arguments (Node's util.parseArgs, through
 * tools/loop/cli-support.ts: --help prints the usage and runs nothing), starts the backend
 * (wasm unless COURSE_BACKEND says otherwise), and runs the stage. Exit codes: 0 done, 1 a bad file
 * or a failed run, 2 usage, 130 stopped by Ctrl-C after saving a checkpoint.
 */
import { join, resolve } from "node:path";
import { BackendError, initBackend } from "../../lib/backend.js";
import { ROOT } from "../../grader/engine/paths.js";
import { TrainError } from "../../lib/train/errors.js";
import { PRESETS, type TrainSettings } from "../../lib/train/settings.js";
import { RL_STAGES, STAGE_NAMES, STAGES } from "../../lib/train/stages/index.js";
import { parseRlOptions, RL_OPTIONS, RL_USAGE } from "../../lib/rl/cli-options.js";
import { parseOptions, runCommand, UsageError } from "../loop/cli-support.js";
import { ensurePretrainCorpus } from "../data/ensure.js";

const USAGE = `usage: npm run train -- <${STAGE_NAMES.join("|")}> [options]
  --config NAME        model and settings: ${Object.keys(PRESETS).join(", ")} (default tiny; on --resume, the checkpoint's)
  --steps N            micro-batches in the whole run (default: the config's epochs)
  --workers N          train in N processes, one a core (data parallel, MiniMind's DDP): pretrain and sft split each
                       global batch (each takes --batch-size samples); the RL stages split each policy update's rows
                       (sampling stays in rank 0); rank 0 combines the gradients (default 1)
  --stop-after N       end after N micro-batches, the lr schedule still spanning --steps (resumable; not RL)
  --out DIR            where checkpoints, loss.svg and run.json go (default runs/<stage>-<config>, or the --resume folder)
  --resume DIR         continue the run saved in DIR (weights, optimizer, step, data position)
  --data FILE          the stage's data (.jsonl or text; default the stage's corpus)
  --from FILE          weights to start from, for stages that take them (sft: a pretrain_*.safetensors)
  --use-reference L    run the reference for these lessons (lesson-14,lesson-11 or all)
  --keep best|last     what the weights file holds: the lowest held-out loss's weights (default) or the last step's (MiniMind's); not RL
  --name NAME          the run's name in its chart title and run.json (default the stage's; the capstone's task SFT is "task-sft"); not RL
  --batch-size N  --max-seq-len N  --accumulation-steps N  --learning-rate X  --save-every N  --eval-every N  --log-every N  --seed N
${RL_USAGE}
Backend: COURSE_BACKEND=wasm (default) | cpu | tensorflow.`;

const INT_OPTIONS: Record<string, keyof TrainSettings> = {
  "batch-size": "batchSize",
  "max-seq-len": "maxSeqLen",
  "accumulation-steps": "accumulationSteps",
  "save-every": "saveEvery",
  "eval-every": "evalEvery",
  "log-every": "logEvery",
  seed: "seed",
};

function positiveInt(name: string, raw: string, min = 1): number {
  const n = Number(raw);
  const what = min === 1 ? "a positive whole number" : min === 0 ? "a whole number, 0 or more" : `a whole number, ${min} or more`;
  if (raw.trim() === "" || !Number.isInteger(n) || n < min) throw new TrainError(`--${name} must be an integer ≥ ${min} (${what}), got ${JSON.stringify(raw)}`, 2);
  return n;
}

/**
 * A Ctrl-C while the command starts (modules, the backend, the corpus) is answered in words; the run
 * itself takes Ctrl-C over (save and exit 130), so `handOver` removes this before it starts.
 */
const beforeRun = () => {
  console.log("Ctrl-C before training started: nothing was trained or written");
  process.exit(130);
};
process.on("SIGINT", beforeRun);
const handOver = () => process.off("SIGINT", beforeRun);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      config: { type: "string" },
      steps: { type: "string" },
      "stop-after": { type: "string" },
      workers: { type: "string" },
      out: { type: "string" },
      resume: { type: "string" },
      data: { type: "string" },
      from: { type: "string" },
      "use-reference": { type: "string", multiple: true },
      "learning-rate": { type: "string" },
      keep: { type: "string" },
      name: { type: "string" },
      ...Object.fromEntries(Object.keys(INT_OPTIONS).map((k) => [k, { type: "string" as const }])),
      ...RL_OPTIONS,
    },
    { positionals: true },
  );
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "which stage?" : `one stage at a time, got ${positionals.join(" ")}`);
  const name = positionals[0];
  const load = STAGES[name];
  if (!load && !RL_STAGES[name]) throw new UsageError(`unknown stage ${JSON.stringify(name)}: have ${STAGE_NAMES.join(", ")}`);
  try {
    const overrides: Partial<TrainSettings> = {};
    for (const [option, key] of Object.entries(INT_OPTIONS)) {
      const raw = (values as Record<string, string | undefined>)[option];
      if (raw !== undefined) (overrides as Record<string, number>)[key] = positiveInt(option, raw, option === "seed" ? 0 : 1);
    }
    if (values["learning-rate"] !== undefined) {
      const lr = Number(values["learning-rate"]);
      if (!(lr > 0)) throw new TrainError(`--learning-rate must be a positive number, got ${JSON.stringify(values["learning-rate"])}`, 2);
      overrides.learningRate = lr;
    }
    if (values.config !== undefined && !PRESETS[values.config]) throw new TrainError(`unknown --config ${values.config}: have ${Object.keys(PRESETS).join(", ")}`, 2);
    const steps = values.steps === undefined ? undefined : positiveInt("steps", values.steps);
    const stopAfter = values["stop-after"] === undefined ? undefined : positiveInt("stop-after", values["stop-after"]);
    const workers = values.workers === undefined ? undefined : positiveInt("workers", values.workers);
    if (stopAfter !== undefined && steps !== undefined && stopAfter > steps) throw new TrainError(`--stop-after ${stopAfter} is past --steps ${steps}`, 2);
    if (values.keep !== undefined) {
      if (values.keep !== "best" && values.keep !== "last") throw new TrainError(`--keep must be best or last, got ${JSON.stringify(values.keep)}`, 2);
      overrides.keep = values.keep;
    }
    if (values.name !== undefined && !/^[\w.-]{1,64}$/.test(values.name)) throw new TrainError(`--name must be a short name of letters, digits, - _ and ., got ${JSON.stringify(values.name)}`, 2);
    if (RL_STAGES[name] || (STAGES[name] && name === "agent")) {
      const only = values.keep !== undefined ? "--keep" : values.name !== undefined ? "--name" : undefined;
      if (only) throw new TrainError(`${only} is for pretrain, sft and the other supervised stages; ${name} keeps its own last weights`, 2);
    }
    if (RL_STAGES[name]) {
      if (stopAfter !== undefined) throw new TrainError("--stop-after is for pretrain, sft and the other supervised stages; the RL stages take --steps and --max-minutes", 2);
      const algorithm = await RL_STAGES[name]();
      const overridesRl = parseRlOptions(values as Record<string, string | undefined>, overrides, steps, name);
      await initBackend("wasm");
      const { runRl } = await import("../../lib/rl/run.js");
      handOver();
      const result = await runRl({
        algorithm,
        configName: values.config,
        outDir: resolve(values.out ?? values.resume ?? join(ROOT, "runs", `${name}-${values.config ?? "tiny"}`)),
        fromPath: values.from === undefined ? undefined : resolve(values.from),
        resumeDir: values.resume === undefined ? undefined : resolve(values.resume),
        useReference: (values["use-reference"] ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== ""),
        overrides: overridesRl,
        workers,
        tty: process.stdout.isTTY === true,
      });
      return result.exitCode;
    }
    // The RL options mean nothing to the other stages: say so rather than ignore them.
    const rlOnly = Object.keys(RL_OPTIONS).filter((k) => (values as Record<string, unknown>)[k] !== undefined);
    if (rlOnly.length > 0) throw new TrainError(`--${rlOnly[0]} is an option of the RL stages (${Object.keys(RL_STAGES).join(", ")}); ${name} does not take it${name === "agent" ? " (the agent run's settings are lib/rl/agent-run.ts's AGENT_DEFAULTS)" : ""}`, 2);
    const stage = await load();
    const outDir = resolve(values.out ?? values.resume ?? join(ROOT, "runs", `${name}-${values.config ?? "tiny"}`));
    // A fresh clone has no datasets/corpus/pretrain.jsonl (gitignored): make it now, from its seed.
    if (name === "pretrain" && values.data === undefined) await ensurePretrainCorpus();
    await initBackend("wasm");
    const { runStage } = await import("../../lib/train/run.js");
    const run = stage.run ? stage.run.bind(stage) : runStage;
    handOver();
    const result = await run({
      stage,
      configName: values.config,
      steps,
      stopAfter,
      workers,
      outDir,
      resumeDir: values.resume === undefined ? undefined : resolve(values.resume),
      useReference: (values["use-reference"] ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== ""),
      dataPath: values.data === undefined ? undefined : resolve(values.data),
      fromPath: values.from === undefined ? undefined : resolve(values.from),
      overrides,
      name: values.name,
    });
    return result.exitCode;
  } catch (err) {
    if (err instanceof TrainError) {
      console.error(`npm run train: ${err.message}`);
      return err.exitCode;
    }
    if (err instanceof BackendError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}

await runCommand(USAGE, () => main(process.argv.slice(2)), { lessonFunctions: true });
