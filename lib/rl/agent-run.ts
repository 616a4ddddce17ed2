/**
 * `npm run train -- agent`: agentic RL with a tool (MiniMind's trainer/train_agent.py:242-371),
 * from an SFT checkpoint (--from). Each step: G multi-turn rollouts per task (lib/rl/agent-rollout.ts,
 * the calculator executed between generations), lesson 26's `agentReward` per trajectory, lesson 24's
 * group-relative advantages, and lesson 24's CISPO loss (MiniMind's default here; --loss grpo for
 * the clipped one) over the model's own tokens only (lesson 26's `agentLossMask`), with a KL penalty
 * to the frozen SFT model. Held-out tool-call rate and accuracy are measured before and after.
 *
 * Every lesson function comes through lib/resolver.ts and the run prints whose they are. A step
 * whose loss or KL is not finite stops the run with the step and the metric named; the last saved
 * weights stay.
 */
import { withCtrlC, type StopSignal } from "../train/interrupt.js";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as tf from "../tf.js";
import { ROOT } from "../course/paths.js";
import { describeRun, type FunctionChoice } from "../resolver.js";
import { resolveRun, runningPieces } from "../model/pieces.js";
import { MiniMindTS } from "../model/model.js";
import type { ClipGradNorm } from "../model/types.js";
import { AdamW } from "../model/train.js";
import { lineChart } from "../svg.js";
import { loadWeights, saveWeights, weightsPath } from "../train/checkpoint.js";
import { loadRecords, shown } from "../train/data.js";
import { TrainError } from "../train/errors.js";
import { PRESETS, presetConfig } from "../train/settings.js";
import { trainTokenizer } from "../train/tokenizer.js";
import type { StoredTensor } from "../model/safetensors.js";
import { closingWorkers, GradientWorkers, type WorkerSlot } from "../train/workers.js";
import { policyGradientsHere, POLICY_LOGPS_HOMES, type PolicyBatch, type PolicyLoss, type PolicyStep } from "./policy-batch.js";
import { policyGradientsAcross } from "./policy-workers.js";
import { agentRollouts, type AgentFunctions, type AgentMessage, type AgentTask, type AgentTrajectoryResult } from "./agent-rollout.js";

export const AGENT_TRAIN = join(ROOT, "datasets", "corpus", "agent.jsonl");
export const AGENT_HELD_OUT = join(ROOT, "datasets", "corpus", "agent-heldout.jsonl");

/** The agent run's settings: MiniMind's train_agent.py arguments (374-413), scaled to a laptop CPU. */
export interface AgentSettings {
  steps: number;
  /** Tasks per step (batch_size, MiniMind 2). */
  batchSize: number;
  /** Trajectories per task (num_generations, MiniMind 4). */
  numGenerations: number;
  maxTurns: number;
  maxNewTokens: number;
  maxTotalLen: number;
  learningRate: number;
  beta: number;
  loss: "cispo" | "grpo";
  epsilon: number;
  epsilonHigh: number;
  gradClip: number;
  temperature: number;
  seed: number;
  /** Held-out tasks evaluated before and after: one greedy and one sampled (at `temperature`) trajectory each. */
  evalTasks: number;
  /**
   * Render the tools' JSON schemas into the prompt's system turn, as MiniMind's template does
   * (≈ 410 tokens of the course tokenizer). Off by default: the tiny model, pretrained on 64
   * positions, cannot use them, and the agent SFT (tools/rl/agent-sft.ts) leaves them out too.
   */
  toolsInPrompt: boolean;
  evalEvery: number;
  saveEvery: number;
}

export const AGENT_DEFAULTS: AgentSettings = {
  steps: 60,
  batchSize: 2,
  numGenerations: 4,
  maxTurns: 3,
  // A calculator call is 50 tokens of the course tokenizer (its JSON splits finely): 40 would cut every call short.
  maxNewTokens: 64,
  maxTotalLen: 768,
  learningRate: 2e-4,
  beta: 0.1,
  loss: "cispo",
  epsilon: 0.2,
  epsilonHigh: 5.0,
  gradClip: 1.0,
  temperature: 0.8,
  seed: 42,
  evalTasks: 100,
  evalEvery: 20,
  toolsInPrompt: false,
  saveEvery: 10,
};

export interface AgentRunOptions {
  configName?: string;
  outDir: string;
  fromPath?: string;
  dataPath?: string;
  useReference: string[];
  settings?: Partial<AgentSettings>;
  log?: (line: string) => void;
  /** --workers: processes the policy update is split over (lib/rl/policy-workers.ts); default 1. */
  workers?: number;
}

interface StepFns extends AgentFunctions {
  agentReward: (t: { completion: string; turnOutputs: string[]; unfinished: boolean }, gt: string[], tools: unknown[] | null) => number;
  groupRelativeAdvantages: (rewards: tf.Tensor1D, numGenerations: number, eps?: number) => tf.Tensor1D;
  cispoPolicyLoss: (p: tf.Tensor2D, o: tf.Tensor2D, r: tf.Tensor2D, a: tf.Tensor1D, m: tf.Tensor2D, epsHigh: number, beta: number) => tf.Scalar;
  grpoPolicyLoss: (p: tf.Tensor2D, o: tf.Tensor2D, r: tf.Tensor2D, a: tf.Tensor1D, m: tf.Tensor2D, eps: number, beta: number) => tf.Scalar;
  clipGradNorm: ClipGradNorm;
}

const FUNCTIONS: Record<keyof StepFns, string> = {
  renderChat: "lesson-4",
  perTokenLogps: "lesson-25",
  parseToolCalls: "lesson-26",
  agentLossMask: "lesson-26",
  agentReward: "lesson-26",
  groupRelativeAdvantages: "lesson-24",
  cispoPolicyLoss: "lesson-24",
  grpoPolicyLoss: "lesson-24",
  clipGradNorm: "lesson-14",
};

interface AgentLine {
  conversations: AgentMessage[];
  gt: string | string[];
}

/** MiniMind's AgentRLDataset (dataset/lm_dataset.py:226-252): messages but the last, tools from the system message, gt. */
export async function loadAgentTasks(path: string, limit = Infinity): Promise<{ tasks: AgentTask[]; skipped: number }> {
  const check = (v: unknown) => {
    const r = v as Partial<AgentLine> | null;
    if (!r || !Array.isArray(r.conversations) || r.conversations.length < 2) return 'no "conversations" list of 2+ messages';
    return typeof r.gt === "string" || Array.isArray(r.gt) ? undefined : 'no "gt"';
  };
  const read = await loadRecords<AgentLine>(path, check, () => ({ conversations: [], gt: "" }), limit);
  const tasks = read.records.map((r) => {
    let tools: unknown[] = [];
    const messages = r.conversations.map((m) => {
      if (m.role === "system" && m.tools) tools = typeof m.tools === "string" ? (JSON.parse(m.tools) as unknown[]) : (m.tools as unknown[]);
      return { ...m };
    });
    return { messages: messages.slice(0, -1), tools, gt: Array.isArray(r.gt) ? String(r.gt[0]) : r.gt };
  });
  return { tasks, skipped: read.skipped };
}

/** Tool-call rate, malformed-call rate, accuracy and mean reward of a set of trajectories. */
function summarise(trajs: AgentTrajectoryResult[], rewards?: number[]) {
  const n = Math.max(trajs.length, 1);
  return {
    toolCallRate: trajs.filter((t) => t.calculatorCalls > 0).length / n,
    parseFailureRate: trajs.filter((t) => t.parseFailures > 0).length / n,
    accuracy: trajs.filter((t) => t.correct).length / n,
    correctWithTool: trajs.filter((t) => t.correct && t.calculatorCalls > 0).length / n,
    meanTurns: trajs.reduce((a, t) => a + t.turnOutputs.length, 0) / n,
    ...(rewards ? { rewardMean: rewards.reduce((a, b) => a + b, 0) / Math.max(rewards.length, 1) } : {}),
  };
}

const show = (p: string) => {
  const r = relative(ROOT, p);
  return r.startsWith("..") ? p : r;
};

/** Runs the agent stage (see the module comment). Returns run.json's report. */
export async function runAgent(opts: AgentRunOptions): Promise<{ exitCode: number; report: Record<string, unknown> }> {
  // However the run ends, its workers (--workers) end with it.
  return withCtrlC((signal) => closingWorkers((workers) => agent(opts, signal, workers)));
}

async function agent(opts: AgentRunOptions, signal: StopSignal, workers: WorkerSlot): Promise<{ exitCode: number; report: Record<string, unknown> }> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const s: AgentSettings = { ...AGENT_DEFAULTS, ...opts.settings };
  const tok = trainTokenizer();
  const configName = opts.configName ?? "tiny";
  const preset = PRESETS[configName];
  if (!preset) throw new TrainError(`unknown --config ${configName}: have ${Object.keys(PRESETS).join(", ")}`, 2);
  const config = presetConfig(preset, tok.vocabSize, s.maxTotalLen);
  if (!opts.fromPath) throw new TrainError("the agent stage starts from an SFT model that has seen tool calls: pass --from runs/…/full_sft_128.safetensors", 2);
  if (!existsSync(opts.fromPath)) throw new TrainError(`--from ${shown(opts.fromPath)}: no such weights file`);
  const initial = loadWeights(opts.fromPath, config, `--config ${configName}`);
  const dataPath = opts.dataPath ?? AGENT_TRAIN;
  const train = await loadAgentTasks(dataPath);
  if (train.tasks.length === 0) throw new TrainError(`no agent tasks in ${shown(dataPath)}`);
  const held = await loadAgentTasks(AGENT_HELD_OUT, s.evalTasks);

  const pieces = await resolveRun<StepFns>(runningPieces(config), FUNCTIONS, { useReference: opts.useReference });
  const choices: FunctionChoice[] = pieces.choices;
  const fns = pieces.fns;
  log(`npm run train -- agent: agentic RL with the calculator tool (${s.loss}), on the ${tf.getBackend()} backend`);
  for (const line of describeRun(choices)) log(line);

  const toTensors = (w: Record<string, StoredTensor>) => Object.fromEntries(Object.entries(w).map(([k, t]) => [k, tf.tensor(t.data, t.shape, "float32")]));
  const w0 = toTensors(initial);
  const model = new MiniMindTS(config, w0, { pieces: pieces.pieces });
  const ref = new MiniMindTS(config, w0, { pieces: pieces.pieces });
  tf.dispose(Object.values(w0));
  const variables = model.trainableVariables();
  const optimizer = new AdamW(variables);
  const params = variables.reduce((n, v) => n + v.size, 0);
  // Ranks 1 … N − 1 of a data-parallel run share each policy update (lib/rl/policy-workers.ts); rollouts stay here.
  const worldSize = opts.workers ?? 1;
  const pool = worldSize > 1 ? (workers.pool = await GradientWorkers.start(worldSize, { config, useReference: opts.useReference, backend: tf.getBackend(), policyFunctions: { perTokenLogps: POLICY_LOGPS_HOMES.perTokenLogps } })) : undefined;
  const policyGradients = (batch: PolicyBatch, lossOf: PolicyLoss) => (pool ? policyGradientsAcross(pool, model, fns, batch, lossOf) : Promise.resolve(policyGradientsHere(model, fns, batch, variables, lossOf)));
  if (pool) log(`Data parallel: ${worldSize} processes share each policy update; rollouts, rewards and AdamW in this one`);
  log(`Model: --config ${configName}, ${(params / 1e6).toFixed(3)}M parameters, from ${show(opts.fromPath)}; a frozen copy is the KL reference`);
  log(`Data: ${shown(dataPath)} (${train.tasks.length} tasks), held out: ${shown(AGENT_HELD_OUT)} (first ${held.tasks.length})`);
  log(`Run: ${s.steps} steps × ${s.batchSize} tasks × ${s.numGenerations} trajectories, ≤ ${s.maxTurns} turns of ≤ ${s.maxNewTokens} tokens, lr ${s.learningRate}, β ${s.beta}, T ${s.temperature}; the tools' schemas ${s.toolsInPrompt ? "rendered into" : "left out of"} the prompt`);

  // Greedy decoding shows the policy's most likely behaviour; one sampled trajectory per task (a fixed
  // seed, the run's temperature) shows how often it calls the tool, which greedy rounds to 0 or 1.
  const evaluate = () => {
    const greedy = agentRollouts(model, tok, fns, held.tasks, { ...s, numGenerations: 1, seed: 1, greedy: true });
    const sampled = agentRollouts(model, tok, fns, held.tasks, { ...s, numGenerations: 1, seed: 2 });
    const samples = (trajs: AgentTrajectoryResult[]) => trajs.slice(0, 3).map((t) => ({ question: String(t.task.messages[t.task.messages.length - 1]?.content), gt: t.task.gt, turns: t.turnOutputs }));
    return { ...summarise(greedy), samples: samples(greedy), sampled: { temperature: s.temperature, ...summarise(sampled), samples: samples(sampled) } };
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const describe = (e: ReturnType<typeof evaluate>) =>
    `tool calls ${pct(e.toolCallRate)}, malformed calls ${pct(e.parseFailureRate)}, accuracy ${pct(e.accuracy)} greedy; tool calls ${pct(e.sampled.toolCallRate)}, malformed ${pct(e.sampled.parseFailureRate)}, accuracy ${pct(e.sampled.accuracy)} sampled at T=${s.temperature}`;
  const started = performance.now();
  const before = evaluate();
  log(`Before (${held.tasks.length} held-out tasks): ${describe(before)}`);
  // A Ctrl-C that came while the data loaded or the "before" evaluation ran is delivered here.
  await new Promise((r) => setImmediate(r));
  if (signal.stop) {
    model.dispose();
    ref.dispose();
    log("Ctrl-C before the first step: nothing was trained and nothing written; run the same command again to start");
    return { exitCode: 130, report: {} };
  }

  mkdirSync(opts.outDir, { recursive: true });
  const file = weightsPath(opts.outDir, "agent", config);
  const save = () => saveWeights(file, Object.fromEntries(Object.entries(model.params).map(([k, v]) => [k, { shape: [...v.shape], data: Float32Array.from(v.dataSync() as Float32Array) }])), config);
  const curves = { reward: [] as Array<[number, number]>, toolRate: [] as Array<[number, number]>, accuracy: [] as Array<[number, number]>, kl: [] as Array<[number, number]>, heldOutAccuracy: [[0, before.accuracy]] as Array<[number, number]>, heldOutToolRate: [[0, before.toolCallRate]] as Array<[number, number]>, heldOutSampledAccuracy: [[0, before.sampled.accuracy]] as Array<[number, number]>, heldOutSampledToolRate: [[0, before.sampled.toolCallRate]] as Array<[number, number]> };
  const steps: Array<Record<string, number>> = [];
  let stopped: string | undefined;
  const etaMin = s.learningRate / 10;
  for (let step = 1; step <= s.steps; step++) {
    const t0 = performance.now();
    const lr = etaMin + ((s.learningRate - etaMin) * (1 + Math.cos((Math.PI * (step - 1)) / s.steps))) / 2; // CosineAnnealingLR (460)
    const batch = Array.from({ length: s.batchSize }, (_, i) => train.tasks[((step - 1) * s.batchSize + i) % train.tasks.length]);
    const trajs = agentRollouts(model, tok, fns, batch, { ...s, seed: s.seed * 7919 + step });
    const rewards = trajs.map((t) => fns.agentReward({ completion: t.turnOutputs[t.turnOutputs.length - 1] ?? "", turnOutputs: t.turnOutputs, unfinished: t.unfinished }, [t.task.gt], t.task.tools));
    const m = await updatePolicy(policyGradients, ref, optimizer, fns, trajs, rewards, s, lr, tok.padId);
    const seconds = (performance.now() - t0) / 1000;
    const sum = summarise(trajs, rewards);
    const row = { step, rewardMean: sum.rewardMean!, rewardStd: Math.sqrt(rewards.reduce((a, r) => a + (r - sum.rewardMean!) ** 2, 0) / rewards.length), toolCallRate: sum.toolCallRate, parseFailureRate: sum.parseFailureRate, accuracy: sum.accuracy, kl: m.kl, loss: m.loss, tokens: m.tokens, lr, seconds };
    steps.push(row);
    curves.reward.push([step, row.rewardMean]);
    curves.toolRate.push([step, row.toolCallRate]);
    curves.accuracy.push([step, row.accuracy]);
    curves.kl.push([step, m.kl]);
    log(`step ${step}/${s.steps}: reward ${row.rewardMean.toFixed(3)} ± ${row.rewardStd.toFixed(3)}, tool calls ${(row.toolCallRate * 100).toFixed(0)}%, correct ${(row.accuracy * 100).toFixed(0)}%, KL ${m.kl.toFixed(4)}, loss ${m.loss.toFixed(4)}, ${m.tokens.toFixed(0)} trained tokens/row, ${seconds.toFixed(1)} s`);
    if (!Number.isFinite(m.loss) || !Number.isFinite(m.kl)) {
      stopped = `step ${step}: the ${Number.isFinite(m.loss) ? "KL" : "loss"} is ${Number.isFinite(m.loss) ? m.kl : m.loss}; the weights of the last save are kept (${show(file)})`;
      log(`Stopped: ${stopped}. Check lessons 24-26 (npm run grade lesson-24, lesson-26) or rerun with --use-reference lesson-24,lesson-26.`);
      break;
    }
    if (step % s.saveEvery === 0 || step === s.steps || signal.stop) save();
    if (signal.stop && step < s.steps) {
      stopped = `Ctrl-C at step ${step}: the weights of this step are saved (${show(file)}); the agent stage has no resume, so a new run starts again from --from`;
      log(`${stopped}; evaluating them (Ctrl-C again to leave now)`);
      break;
    }
    await new Promise((r) => setImmediate(r));
    if (step % s.evalEvery === 0 && step < s.steps) {
      const e = evaluate();
      curves.heldOutAccuracy.push([step, e.accuracy]);
      curves.heldOutToolRate.push([step, e.toolCallRate]);
      curves.heldOutSampledAccuracy.push([step, e.sampled.accuracy]);
      curves.heldOutSampledToolRate.push([step, e.sampled.toolCallRate]);
      log(`  held out at step ${step}: ${describe(e)}`);
    }
  }
  const after = evaluate();
  curves.heldOutAccuracy.push([steps.length, after.accuracy]);
  curves.heldOutToolRate.push([steps.length, after.toolCallRate]);
  curves.heldOutSampledAccuracy.push([steps.length, after.sampled.accuracy]);
  curves.heldOutSampledToolRate.push([steps.length, after.sampled.toolCallRate]);
  const wall = (performance.now() - started) / 1000;
  model.dispose();
  ref.dispose();
  log(`After (${held.tasks.length} held-out tasks): ${describe(after)}`);
  log(`Held out, before → after: tool calls ${pct(before.toolCallRate)} → ${pct(after.toolCallRate)}, accuracy ${pct(before.accuracy)} → ${pct(after.accuracy)} greedy; tool calls ${pct(before.sampled.toolCallRate)} → ${pct(after.sampled.toolCallRate)}, accuracy ${pct(before.sampled.accuracy)} → ${pct(after.sampled.accuracy)} sampled (${wall.toFixed(0)} s)`);
  const report = {
    stage: "agent",
    config: configName,
    model: config,
    settings: { ...s, from: show(opts.fromPath), data: shown(dataPath) },
    backend: tf.getBackend(),
    functions: choices.map((c) => ({ lesson: c.lesson, name: c.name, whose: c.source === "exercises" ? "yours" : "reference", why: c.why })),
    parameters: params,
    steps: steps.length,
    wallSeconds: Number(wall.toFixed(1)),
    heldOut: { tasks: held.tasks.length, before, after },
    stopped: stopped ?? null,
    log: steps,
    files: { weights: show(file), curves: show(join(opts.outDir, "agent.svg")) },
  };
  writeFileSync(join(opts.outDir, "run.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(opts.outDir, "agent.svg"),
    lineChart({
      title: "agent: rollouts and held-out",
      xLabel: "step",
      yLabel: "rate / reward",
      series: [
        { name: "reward (mean)", points: curves.reward },
        { name: "tool-call rate", points: curves.toolRate },
        { name: "correct (rollouts)", points: curves.accuracy },
        { name: "held-out accuracy (greedy)", points: curves.heldOutAccuracy, dashed: true, markers: true },
        { name: "held-out tool rate (greedy)", points: curves.heldOutToolRate, dashed: true, markers: true },
        { name: "held-out accuracy (sampled)", points: curves.heldOutSampledAccuracy, dashed: true, markers: true },
        { name: "held-out tool rate (sampled)", points: curves.heldOutSampledToolRate, dashed: true, markers: true },
      ],
    }),
  );
  log(`Wrote ${show(file)}, ${show(join(opts.outDir, "agent.svg"))} and ${show(join(opts.outDir, "run.json"))}`);
  return { exitCode: signal.stop ? 130 : stopped ? 1 : 0, report };
}

/** One policy update on a batch of trajectories (MiniMind 253-337); returns loss, KL and trained tokens per row. */
async function updatePolicy(policyGradients: (batch: PolicyBatch, lossOf: PolicyLoss) => Promise<PolicyStep>, ref: MiniMindTS, optimizer: AdamW, fns: StepFns, trajs: AgentTrajectoryResult[], rewards: number[], s: AgentSettings, lr: number, padId: number) {
  const B = trajs.length;
  const L = Math.max(...trajs.map((t) => t.packed.inputIds.length));
  const ids = trajs.flatMap((t) => [...t.packed.inputIds, ...new Array<number>(L - t.packed.inputIds.length).fill(padId)]);
  const mask = trajs.flatMap((t) => [...t.packed.mask, ...new Array<number>(L - t.packed.mask.length).fill(0)]);
  const old = trajs.flatMap((t) => [...t.packed.oldLogps, ...new Array<number>(L - 1 - t.packed.oldLogps.length).fill(0)]);
  const inputIds = tf.tensor2d(ids, [B, L], "int32");
  const attention = tf.tensor2d(ids.map((id) => (id === padId ? 0 : 1)), [B, L], "float32");
  const completionMask = tf.tidy(() => tf.slice(tf.tensor2d(mask, [B, L], "float32"), [0, 1], [B, L - 1])) as tf.Tensor2D;
  const oldLogps = tf.tensor2d(old, [B, L - 1], "float32");
  const refLogps = tf.tidy(() => fns.perTokenLogps(ref.forward(inputIds, { attentionMask: attention }).logits, inputIds, L - 1));
  const advantages = tf.tidy(() => fns.groupRelativeAdvantages(tf.tensor1d(rewards), s.numGenerations));
  const { loss, grads, policyLogps } = await policyGradients({ ids: inputIds, attentionMask: attention, read: { lastTokens: L - 1 } }, (logps) =>
    s.loss === "cispo"
      ? fns.cispoPolicyLoss(logps, oldLogps, refLogps, advantages, completionMask, s.epsilonHigh, s.beta)
      : fns.grpoPolicyLoss(logps, oldLogps, refLogps, advantages, completionMask, s.epsilon, s.beta),
  );
  // Mean per-token KL to the reference over trained tokens, the k3 estimate e^δ − δ − 1 (δ = ref − policy) the penalty uses.
  const kl = tf.tidy(() => {
    const d = tf.sub(refLogps, policyLogps);
    const k3 = tf.sub(tf.sub(tf.exp(d), d), 1);
    return tf.div(tf.sum(tf.mul(k3, completionMask)), tf.maximum(tf.sum(completionMask), 1)).dataSync()[0];
  });
  if (Number.isFinite(loss)) {
    const clipped = fns.clipGradNorm(grads, s.gradClip);
    optimizer.step(clipped.grads.map((g) => Float32Array.from(g.dataSync() as Float32Array)), lr);
    tf.dispose([...clipped.grads, clipped.totalNorm]);
  }
  const tokens = mask.reduce((a, b) => a + b, 0) / B;
  tf.dispose([...grads, policyLogps, inputIds, attention, completionMask, oldLogps, refLogps, advantages]);
  return { loss, kl, tokens };
}
