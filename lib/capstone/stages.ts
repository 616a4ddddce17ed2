/**
 * The capstone's pipeline as data: tokenizer → pretrain → SFT → task SFT → GRPO (and, when asked, DPO
 * and the agent), each stage a run of `npm run train`'s registry (tools/train/cli.ts) with the flags of the
 * chosen mode. `--quick` is sized to finish in a few minutes on a 2-core laptop CPU (the micro
 * model, tens of steps); the full mode is the tiny model with the stage defaults.
 */
import { join } from "node:path";

export type Mode = "quick" | "full";

/** One stage of the pipeline: the `npm run train` arguments it runs with, given where things are. */
export interface CapstoneStage {
  name: string;
  /** The `npm run train` stage it runs, when not `name` (the task SFT is an sft run). */
  train?: string;
  /** Writes what the stage reads before it runs (the task SFT's conversations), in its folder. */
  prepare?: (dir: string) => Promise<void>;
  /** What the stage changes, for the report. */
  purpose: string;
  /** MiniMind's script it mirrors. */
  source: string;
  /** The stage's weights file (what the next stage starts from), relative to its folder. */
  weights: (hidden: number) => string;
  /** The stage it starts from (its weights are --from), if any. */
  from?: string;
  /** The train CLI's arguments (the stage name first); `fromFile` is the previous stage's weights. */
  args: (mode: Mode, dir: string, fromFile: string | undefined) => string[];
  /** Only run when asked (--with dpo,agent). */
  optional?: boolean;
}

const common = (mode: Mode) => ["--config", mode === "quick" ? "micro" : "tiny"];

/** The full run's GRPO: 16 prompts × 8 samples a step, 300 steps or 12 minutes of wall time, whichever comes first (lesson 28 has the measured run). */
const GRPO_FULL = ["--batch-size", "16", "--num-generations", "8", "--learning-rate", "5e-4", "--steps", "300", "--max-minutes", "12", "--eval-every", "20"];

export const CAPSTONE_STAGES: CapstoneStage[] = [
  {
    name: "pretrain",
    purpose: "next-token prediction on the course's pretraining text: the model learns the language and the facts in it",
    source: "trainer/train_pretrain.py",
    weights: (h) => `pretrain_${h}.safetensors`,
    args: (mode, dir) => ["pretrain", ...common(mode), "--out", dir, ...(mode === "quick" ? ["--steps", "30", "--max-seq-len", "32", "--eval-every", "5", "--save-every", "30"] : ["--steps", "600", "--eval-every", "50"])],
  },
  {
    name: "sft",
    purpose: "supervised fine-tuning on conversations: the model learns the chat template and to answer, labels on the replies only",
    source: "trainer/train_full_sft.py",
    weights: (h) => `full_sft_${h}.safetensors`,
    from: "pretrain",
    args: (mode, dir, from) => ["sft", ...common(mode), "--out", dir, "--from", from!, ...(mode === "quick" ? ["--steps", "20", "--max-seq-len", "64", "--eval-every", "5", "--save-every", "20"] : ["--steps", "400", "--eval-every", "50"])],
  },
  {
    name: "task-sft",
    train: "sft",
    // How long it ran comes from its run.json (or, before it runs, its arguments): see `stageLength`.
    purpose: "a short SFT on the RL task's training prompts (sorting three numbers): the format and a first, unreliable skill for RL to improve",
    source: "trainer/train_full_sft.py",
    weights: (h) => `full_sft_${h}.safetensors`,
    from: "sft",
    prepare: async (dir) => {
      const { writeTaskSft } = await import("../rl/task-sft.js");
      await writeTaskSft(join(dir, "task-sft.jsonl"), ["sort"]);
    },
    args: (mode, dir, from) => ["sft", ...common(mode), "--name", "task-sft", "--out", dir, "--from", from!, "--data", join(dir, "task-sft.jsonl"), ...(mode === "quick" ? ["--steps", "10", "--max-seq-len", "64", "--eval-every", "2", "--save-every", "10"] : ["--steps", "1200", "--stop-after", "200", "--max-seq-len", "64", "--learning-rate", "2e-3", "--eval-every", "50", "--save-every", "100"])],
  },
  {
    name: "grpo",
    purpose: "GRPO on the sorting task: groups of samples, rewards from a checker, the model's own right answers reinforced; measured on new questions",
    source: "trainer/train_grpo.py",
    weights: (h) => `grpo_${h}.safetensors`,
    from: "task-sft",
    args: (mode, dir, from) => ["grpo", ...common(mode), "--out", dir, "--from", from!, ...(mode === "quick" ? ["--steps", "3", "--batch-size", "2", "--num-generations", "4", "--eval-every", "3", "--save-every", "3"] : GRPO_FULL)],
  },
  {
    name: "dpo",
    purpose: "DPO on pairs of the model's own right and wrong answers, against the frozen SFT model",
    source: "trainer/train_dpo.py",
    weights: (h) => `dpo_${h}.safetensors`,
    from: "task-sft",
    optional: true,
    args: (mode, dir, from) => ["dpo", ...common(mode), "--out", dir, "--from", from!, ...(mode === "quick" ? ["--steps", "3", "--batch-size", "2"] : ["--steps", "60"])],
  },
  {
    name: "agent",
    purpose: "agentic RL: multi-turn rollouts with the calculator tool, MiniMind's trajectory reward (lesson 26)",
    source: "trainer/train_agent.py",
    weights: (h) => `agent_${h}.safetensors`,
    from: "sft",
    optional: true,
    args: (mode, dir, from) => ["agent", ...common(mode), "--out", dir, "--from", from!, ...(mode === "quick" ? ["--steps", "2", "--batch-size", "1"] : ["--steps", "40"])],
  },
];

/**
 * How long a stage runs, in words, from the numbers: its run.json when it has run (`steps`, and the
 * schedule's `scheduleSteps` when --stop-after ended it early), else the --steps and --stop-after
 * of its arguments. Undefined when neither says.
 */
export function stageLength(args: readonly string[], run?: Record<string, unknown>): string | undefined {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    const n = i >= 0 ? Number(args[i + 1]) : NaN;
    return Number.isInteger(n) ? n : undefined;
  };
  const done = typeof run?.steps === "number" ? (run.steps as number) : undefined;
  const schedule = typeof run?.scheduleSteps === "number" ? (run.scheduleSteps as number) : run ? done : flag("--steps");
  const steps = done ?? flag("--stop-after") ?? flag("--steps");
  if (steps === undefined) return undefined;
  const verb = run ? "ran" : "runs";
  return schedule !== undefined && schedule > steps ? `${verb} the first ${steps} steps of a ${schedule}-step schedule` : `${verb} ${steps} step${steps === 1 ? "" : "s"}`;
}

/** The folder of a stage's run inside the capstone's output folder. */
export const stageDir = (out: string, stage: string): string => join(out, stage);
