/**
 * Agentic RL with a tool (trainer/train_agent.py): the model, started from an SFT checkpoint that
 * has seen tool calls (--from), learns to call the calculator on arithmetic it cannot do in its
 * head. Its loop is lib/rl/agent-run.ts (multi-turn rollouts, lesson 26's reward and mask, lesson
 * 24's CISPO loss); `npm run train`'s --steps, --batch-size (tasks per step), --learning-rate,
 * --seed, --save-every, --eval-every and --max-seq-len (the packed length) apply.
 */
import type { Stage } from "../stage.js";

const stage: Stage = {
  name: "agent",
  summary: "agentic RL: multi-turn rollouts with the calculator tool, MiniMind's trajectory reward",
  weightName: "agent",
  functions: { parseToolCalls: "lesson-26", agentLossMask: "lesson-26", agentReward: "lesson-26" },
  async loadData() {
    return { train: [], heldOut: [], source: "datasets/corpus/agent.jsonl", skipped: 0, problems: [] };
  },
  prompts: () => [],
  async run(opts) {
    const { runAgent } = await import("../../rl/agent-run.js");
    const o = opts.overrides ?? {};
    return runAgent({
      configName: opts.configName,
      outDir: opts.outDir,
      fromPath: opts.fromPath,
      dataPath: opts.dataPath,
      useReference: opts.useReference,
      workers: opts.workers,
      settings: {
        ...(opts.steps !== undefined ? { steps: opts.steps } : {}),
        ...(o.batchSize !== undefined ? { batchSize: o.batchSize } : {}),
        ...(o.learningRate !== undefined ? { learningRate: o.learningRate } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(o.saveEvery !== undefined ? { saveEvery: o.saveEvery } : {}),
        ...(o.evalEvery !== undefined ? { evalEvery: o.evalEvery } : {}),
        ...(o.maxSeqLen !== undefined ? { maxTotalLen: o.maxSeqLen } : {}),
      },
    });
  },
};

export default stage;
