/**
 * One RL post-training run (`npm run train -- dpo|ppo|grpo`): the loop shared by the three
 * algorithms of lib/rl/algorithms/, in the order of MiniMind's trainer/train_grpo.py: settings →
 * policy and frozen reference from --from → resolve every lesson function (printed: whose runs)
 * → held-out accuracy before → steps (the algorithm's rollout, reward and update) with a log line
 * per step → divergence checks → checkpoints → held-out accuracy after, reward.svg, kl.svg, run.json.
 *
 * A step whose loss is NaN/Inf, or whose KL to the reference exceeds `maxKl`, stops the run with
 * a message naming the step and the metric; the weights are not saved after it, so the last
 * checkpoint written (or the --from weights) is what remains.
 *
 * Every save also writes a resume file (lib/rl/resume.ts); `--resume DIR` continues from it with
 * the same settings and, on the cpu backend, ends with the same bits as an uninterrupted run (the
 * rollout seed is a function of the step, the prompt order of seed + epoch). Ctrl-C saves, exits 130.
 *
 * `--workers N` splits each policy update over N processes at the log-probabilities
 * (lib/rl/policy-workers.ts); everything else stays in this one, so checkpoints and resume are
 * the one-process run's.
 */
import { withCtrlC, type StopSignal } from "../train/interrupt.js";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../tf.js";
import { describeRun, type FunctionChoice } from "../resolver.js";
import { resolveRun, runningPieces } from "../model/pieces.js";
import { MiniMindTS } from "../model/model.js";
import { AdamW } from "../model/train.js";
import type { MiniMindConfig } from "../model/config.js";
import { lineChart } from "../svg.js";
import { loadWeights, resumePath, saveWeights, weightsPath } from "../train/checkpoint.js";
import { shown } from "../train/data.js";
import { TrainError } from "../train/errors.js";
import { progress } from "../train/progress.js";
import { PRESETS, presetConfig } from "../train/settings.js";
import { trainTokenizer } from "../train/tokenizer.js";
import { closingWorkers, GradientWorkers, type WorkerSlot } from "../train/workers.js";
import { POLICY_LOGPS_HOMES } from "./policy-batch.js";
import { policyGradientsAcross } from "./policy-workers.js";
import { COMMON_FUNCTIONS, divergence, promptOrder, rlContext, type CommonFunctions, type RlContext } from "./context.js";
import { evaluate, type Evaluation } from "./evaluate.js";
import { fileSha256, findRlResume, loadRlResume, promptsSha256, resumedSettings, saveRlResume, type AlgorithmState, type RlCheckpoint } from "./resume.js";
import { RL_BASE, type RlSettings } from "./settings.js";
import { loadTasks, RL_HELD_OUT, RL_TRAIN } from "./tasks.js";

/** What one step reports (every number is logged and stored in run.json). */
export interface StepMetrics {
  loss: number;
  rewardMean: number;
  rewardStd: number;
  /** Exact-match accuracy of the step's own samples. */
  accuracy: number;
  /** Mean per-token KL(π ‖ π_ref) (k3) on the step's tokens. */
  klRef: number;
  clipFraction: number;
  entropy: number;
  responseLength: number;
  /** Algorithm-specific numbers (PPO's value loss and approx-KL, DPO's margin, …). */
  extra?: Record<string, number>;
}

export type { RlContext } from "./context.js";
export { evaluate, type Evaluation } from "./evaluate.js";

/** One algorithm: its lesson functions, defaults, one-off setup and the step. */
export interface RlAlgorithm {
  name: string;
  summary: string;
  /** MiniMind's --save_weight ("grpo", "ppo_actor", "dpo"). */
  weightName: string;
  /** Lesson functions it calls (name → lesson), resolved with the loop's and printed. */
  functions: Record<string, string>;
  defaults: Partial<RlSettings>;
  /** Called once before the first step (PPO builds its critic, DPO its pairs). */
  setup?(ctx: RlContext): void | Promise<void>;
  /** One optimiser step of the policy at micro-step `step` (1-based) with learning rate `lr`. */
  step(ctx: RlContext, step: number, lr: number): Promise<StepMetrics>;
  /** Frees what setup made. */
  dispose?(): void;
  /** What a resume needs beyond the policy and its optimiser (PPO: the critic and its AdamW). */
  saveState?(): AlgorithmState;
  /** Restores `saveState`'s result; called after setup when a run resumes. */
  loadState?(ctx: RlContext, state: AlgorithmState): void;
  /** Fields merged into run.json after the last step (the async stage's wall times); may log. */
  report?(run: { wallSeconds: number; log: (line: string) => void }): Record<string, unknown>;
}

export interface RlRunOptions {
  algorithm: RlAlgorithm;
  configName?: string;
  outDir: string;
  fromPath?: string;
  /** --resume: the folder of the run to continue (its resume file). */
  resumeDir?: string;
  useReference: string[];
  /** Settings from the command line. */
  overrides?: Partial<RlSettings>;
  /** --workers: processes the policy update is split over (lib/rl/policy-workers.ts); default 1. */
  workers?: number;
  tty?: boolean;
  /** Tests: replace resolved lesson functions (a learner's function that passes grading but diverges). */
  replaceFunctions?: Record<string, unknown>;
  /** Tests: act as if Ctrl-C came during this step (save, exit 130). */
  interruptAt?: number;
}

/** A run stopped because a metric went non-finite or exploded. */
export class DivergenceError extends TrainError {}

function toTensors(weights: Record<string, { shape: number[]; data: Float32Array }>): Record<string, tf.Tensor> {
  return Object.fromEntries(Object.entries(weights).map(([n, t]) => [n, tf.tensor(t.data, t.shape, "float32")]));
}

const fmt = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

/** Runs `opts.algorithm` (see the module comment). Bad input throws TrainError before any file is written. */
export async function runRl(opts: RlRunOptions): Promise<{ exitCode: number; report: Record<string, unknown> }> {
  // However the run ends, its workers (--workers) end with it.
  return withCtrlC((signal) => closingWorkers((workers) => rl(opts, signal, workers)));
}

async function rl(opts: RlRunOptions, signal: StopSignal, workers: WorkerSlot): Promise<{ exitCode: number; report: Record<string, unknown> }> {
  const alg = opts.algorithm;
  const tok = trainTokenizer();
  const log = (line: string) => console.log(line);
  // A resumed run takes its settings, config and --from from the resume file (conflicts: exit 2).
  let resume: RlCheckpoint | undefined;
  let resumeFile: string | undefined;
  if (opts.resumeDir) {
    resumeFile = findRlResume(opts.resumeDir, alg.name, alg.weightName);
    resume = loadRlResume(resumeFile, alg.name);
  }
  const configName = resume?.progress.configName ?? opts.configName ?? "tiny";
  const preset = PRESETS[configName];
  if (!preset) throw new TrainError(`unknown --config ${configName}: have ${Object.keys(PRESETS).join(", ")}`, 2);
  const settings: RlSettings = resume ? resumedSettings(resume, resumeFile!, opts.overrides ?? {}, opts.configName, opts.fromPath) : { ...RL_BASE, ...alg.defaults, ...opts.overrides };
  const fromPath = resume ? resume.progress.from?.path : opts.fromPath;
  // The model's positions must hold prompt + answer; the SFT checkpoint's config says how many it has.
  let config: MiniMindConfig = presetConfig(preset, tok.vocabSize, 64);
  let initial: Record<string, tf.Tensor> | undefined;
  if (fromPath) {
    if (!existsSync(fromPath)) throw new TrainError(`--from ${shown(fromPath)}: no such weights file`);
    const stored = JSON.parse(((await import("../model/safetensors.js")).decodeSafetensors(new Uint8Array((await import("node:fs")).readFileSync(fromPath))).metadata.config ?? "null")) as MiniMindConfig | null;
    if (stored) config = stored;
    initial = toTensors(loadWeights(fromPath, config, `--config ${configName}`));
  }
  if (resume && JSON.stringify(resume.config) !== JSON.stringify(config)) throw new TrainError(`--resume ${shown(resumeFile!)}: its model config differs from the --from weights' (${shown(fromPath ?? "(seeded)")})`, 2);
  const fromSha = fromPath ? (resume?.progress.from?.sha256 ?? fileSha256(fromPath)) : null;
  if (config.vocabSize !== tok.vocabSize) throw new TrainError(`the model has ${config.vocabSize} token ids, the tokenizer (${tok.name}) ${tok.vocabSize}`);

  // Whose functions run.
  const homes: Record<string, string> = { ...COMMON_FUNCTIONS, ...alg.functions };
  const resolved = await resolveRun<Record<string, unknown>>(runningPieces(config), homes, { useReference: opts.useReference });
  const choices: FunctionChoice[] = resolved.choices;
  const fns = { ...resolved.fns, ...opts.replaceFunctions };
  const f = fns as unknown as CommonFunctions;
  log(`npm run train -- ${alg.name}: ${alg.summary}, on the ${tf.getBackend()} backend`);
  for (const line of describeRun(choices)) log(line);

  // Data.
  const train = await loadTasks(RL_TRAIN, settings.task);
  const held = await loadTasks(RL_HELD_OUT, settings.task, settings.evalLimit);
  if (train.records.length === 0) throw new TrainError(`no training prompts of kind ${settings.task.join(", ")} in ${shown(RL_TRAIN)}`);

  const questionsSha = promptsSha256(train.records.map((r) => r.question));
  if (resume && (resume.progress.prompts.count !== train.records.length || resume.progress.prompts.sha256 !== questionsSha)) {
    throw new TrainError(`--resume ${shown(resumeFile!)}: the training prompts changed since the run started (${resume.progress.prompts.count} then, ${train.records.length} now in ${shown(RL_TRAIN)}); start a new run`, 2);
  }

  // Models: the policy trains (from the resume file's weights when resuming); the reference is a frozen copy of the start.
  const resumed = resume ? toTensors(resume.weights) : undefined;
  const policy = resumed ? new MiniMindTS(config, resumed, { pieces: resolved.pieces }) : initial ? new MiniMindTS(config, initial, { pieces: resolved.pieces }) : MiniMindTS.init(config, settings.seed, { pieces: resolved.pieces });
  if (resumed) tf.dispose(Object.values(resumed));
  const reference = initial ? new MiniMindTS(config, initial, { pieces: resolved.pieces }) : MiniMindTS.init(config, settings.seed, { pieces: resolved.pieces });
  if (initial) tf.dispose(Object.values(initial));
  else if (!resume) log(`${alg.name} from a seeded initialisation (no --from): pass --from runs/rl-sft-sort/full_sft_128.safetensors (README: the task SFT)`);
  const variables = policy.trainableVariables();
  const names = Object.keys(policy.params);
  const optimizer = new AdamW(variables);
  if (resume) optimizer.restore({ m: names.map((n) => resume!.optimizer.m[n]), v: names.map((n) => resume!.optimizer.v[n]), t: resume.optimizer.t });
  // The prompt order: epoch e's shuffle is seeded by seed + e, so a resume rebuilds the current one.
  const prompts = promptOrder(train.records, settings.seed, { cursor: resume?.progress.prompts.cursor ?? 0, epoch: resume?.progress.prompts.epoch ?? 0 });
  // Ranks 1 … N − 1 of a data-parallel run: they share the policy update (lib/rl/policy-workers.ts); sampling stays here.
  const worldSize = opts.workers ?? 1;
  const policyFunctions = Object.fromEntries(Object.entries(POLICY_LOGPS_HOMES).filter(([name]) => name in homes));
  const unshared = Object.keys(opts.replaceFunctions ?? {}).filter((name) => name in policyFunctions);
  if (worldSize > 1 && unshared.length > 0) throw new TrainError(`--workers: the workers resolve ${unshared.join(", ")} themselves, so a replaced one would differ between processes`, 2);
  const pool = worldSize > 1 ? (workers.pool = await GradientWorkers.start(worldSize, { config, useReference: opts.useReference, backend: tf.getBackend(), policyFunctions })) : undefined;
  const ctx: RlContext = rlContext({ tok, settings, policy, reference, optimizer, fns, train: train.records, prompts, log, policyGradients: pool && ((batch, lossOf) => policyGradientsAcross(pool, policy, fns, batch, lossOf)) });
  if (pool) log(`Data parallel: ${worldSize} processes share each policy update (rows r, r + ${worldSize}, … to rank r; the loss and its gradient at the log-probs here, the ranks' gradients summed); sampling, rewards and AdamW in this one`);

  log(`Model: ${shown(fromPath ?? "(seeded)")}: hidden ${config.hiddenSize}, ${config.numHiddenLayers} layers, ${(variables.reduce((n, v) => n + v.size, 0) / 1e6).toFixed(3)}M parameters; frozen reference: a copy`);
  log(`Task: ${settings.task.join(", ")}; ${train.records.length} training prompts (${shown(RL_TRAIN)}), ${held.records.length} held out (${shown(RL_HELD_OUT)}); reward ${settings.reward}`);
  log(`Run: ${settings.steps} steps, lr ${settings.learningRate} on MiniMind's cosine, ${settings.promptsPerStep} prompts × ${settings.numGenerations} samples a step, ≤ ${settings.maxNewTokens} new tokens at T = ${settings.temperature}, β ${settings.beta}`);

  // Wall time counts earlier processes of a resumed run (the SVGs and run.json cover the whole run).
  const secondsBefore = resume?.progress.seconds ?? 0;
  const started = performance.now();
  const seconds = () => secondsBefore + (performance.now() - started) / 1000;
  if (resume) log(`Resuming ${shown(resumeFile!)} at step ${resume.step} of ${settings.steps} (prompt epoch ${prompts.position().epoch}, ${prompts.position().cursor} prompts into it)`);
  const before = resume ? (resume.progress.before as Evaluation) : evaluate(ctx, policy, held.records);
  log(`Held-out exact match before: ${(100 * before.accuracy).toFixed(1)}% (${held.records.length} prompts, greedy; ${before.unseen} of them not also in the training file${before.unseenAccuracy === null ? "" : `: ${(100 * before.unseenAccuracy).toFixed(1)}%`})${resume ? " (from the run's start)" : ""}`);
  await alg.setup?.(ctx);
  if (resume) alg.loadState?.(ctx, resume.algorithm);
  const setupSeconds = resume ? resume.progress.setupSeconds : seconds();

  // A Ctrl-C that came while the data loaded or the "before" evaluation ran is delivered here.
  await new Promise((r) => setImmediate(r));
  if (signal.stop) {
    alg.dispose?.();
    policy.dispose();
    reference.dispose();
    log(`Ctrl-C before the first step: nothing was trained and nothing written${resume ? ` (${shown(resumeFile!)} is as it was)` : ""}; run the same command again to start${resume ? " from that checkpoint" : ""}`);
    return { exitCode: 130, report: {} };
  }

  mkdirSync(opts.outDir, { recursive: true });
  const file = weightsPath(opts.outDir, alg.weightName, config);
  const resumeOut = resumePath(opts.outDir, alg.weightName, config);
  const history = (resume?.progress.history ?? []) as unknown as Array<StepMetrics & { step: number; seconds: number; lr: number }>;
  const accuracy: Array<[number, number]> = resume ? resume.progress.accuracy : [[0, before.accuracy]];
  let saved: number | null = resume ? resume.step : null;
  const save = (step: number) => {
    const w: Record<string, { shape: number[]; data: Float32Array }> = {};
    for (const [n, v] of Object.entries(policy.params)) w[n] = { shape: [...v.shape], data: Float32Array.from(v.dataSync() as Float32Array) };
    const state = optimizer.state();
    const byName = (arrays: Float32Array[]) => Object.fromEntries(names.map((n, i) => [n, arrays[i]]));
    saveRlResume(resumeOut, alg.name, {
      step,
      config,
      settings,
      weights: w,
      optimizer: { m: byName(state.m), v: byName(state.v), t: state.t },
      progress: {
        configName,
        from: fromPath ? { path: fromPath, sha256: fromSha! } : null,
        prompts: { ...prompts.position(), count: train.records.length, sha256: questionsSha },
        seconds: seconds(),
        setupSeconds,
        accuracy,
        history: history as unknown as Array<Record<string, unknown>>,
        before,
        algorithm: null,
      },
      algorithm: alg.saveState?.() ?? { tensors: {}, json: null },
    });
    saveWeights(file, w, config);
    saved = step;
  };

  // A live bar on a terminal; elsewhere the step lines below are the progress.
  const bar = (opts.tty ?? false) ? progress(settings.steps, resume?.step ?? 0, settings.logEvery, true) : { update: () => undefined, log, stop: () => undefined };
  let step = resume?.step ?? 0;
  let stopped: string | null = null;
  try {
    while (step < settings.steps) {
      step++;
      const lr = f.cosineLr(step, settings.steps, settings.learningRate);
      const m = await alg.step(ctx, step, lr);
      if (step === opts.interruptAt) signal.stop = true;
      history.push({ ...m, step, seconds: seconds(), lr });
      const bad = divergence(m, settings.maxKl);
      if (bad) {
        const kept = saved !== null ? `The last checkpoint (step ${saved}) is kept: ${shown(file)}` : `No checkpoint was written; the --from weights are unchanged`;
        throw new DivergenceError(`${alg.name} diverged at step ${step}: ${bad}. ${kept}. If your own function runs here (see the table above), it passes its grader but misbehaves in training: run with --use-reference for its lesson to compare.`);
      }
      bar.update({ step, loss: m.loss, lr, tokensPerSecond: 0 });
      if (step % settings.logEvery === 0 || step === settings.steps) {
        const extra = Object.entries(m.extra ?? {}).map(([k, v]) => `${k} ${fmt(v)}`).join("  ");
        bar.log(`step ${step}/${settings.steps}  loss ${fmt(m.loss, 4)}  reward ${fmt(m.rewardMean)} ± ${fmt(m.rewardStd)}  acc ${fmt(m.accuracy)}  kl_ref ${fmt(m.klRef, 4)}  clipfrac ${fmt(m.clipFraction)}  entropy ${fmt(m.entropy)}  len ${fmt(m.responseLength, 1)}  ${extra}  ${seconds().toFixed(0)} s`);
      }
      const outOfTime = settings.maxMinutes > 0 && seconds() > settings.maxMinutes * 60;
      const last = step === settings.steps || outOfTime;
      if (step % settings.evalEvery === 0 || last) {
        const e = evaluate(ctx, policy, held.records);
        accuracy.push([step, e.accuracy]);
        bar.log(`step ${step}: held-out exact match ${(100 * e.accuracy).toFixed(1)}%`);
      }
      if (step % settings.saveEvery === 0 || last || signal.stop) save(step);
      if (signal.stop && !last) {
        bar.log(`Ctrl-C: saved ${shown(resumeOut)} at step ${step}; continue with npm run train -- ${alg.name} --resume ${shown(opts.outDir)}`);
        break;
      }
      if (outOfTime) stopped = `--max-minutes ${settings.maxMinutes} reached at step ${step}`;
      if (stopped) break;
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    bar.stop();
    alg.dispose?.();
  }
  if (signal.stop && step < settings.steps && !stopped) {
    policy.dispose();
    reference.dispose();
    return { exitCode: 130, report: {} };
  }
  if (stopped) log(stopped);

  const after = evaluate(ctx, policy, held.records);
  const wall = seconds();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
  const tail = history.slice(-Math.min(10, history.length));
  const report = {
    stage: alg.name,
    config: configName,
    model: config,
    from: fromPath ? shown(fromPath) : null,
    resumedFrom: resume ? resume.step : null,
    settings,
    tokenizer: tok.name,
    backend: tf.getBackend(),
    functions: choices.map((c) => ({ lesson: c.lesson, name: c.name, whose: c.source === "exercises" ? "yours" : "reference", why: c.why })),
    data: { train: shown(RL_TRAIN), trainPrompts: train.records.length, heldOut: shown(RL_HELD_OUT), heldOutPrompts: held.records.length, skipped: train.skipped + held.skipped },
    steps: step,
    stopped,
    wallSeconds: Number(wall.toFixed(1)),
    setupSeconds: Number(setupSeconds.toFixed(1)),
    accuracy: {
      before: before.accuracy,
      after: after.accuracy,
      gainPoints: Number((100 * (after.accuracy - before.accuracy)).toFixed(1)),
      // The corpus's held-out file repeats short questions of the training file (datasets/README.md):
      // these count only the held-out prompts that are new.
      unseenPrompts: after.unseen,
      unseenBefore: before.unseenAccuracy,
      unseenAfter: after.unseenAccuracy,
      byKindBefore: before.byKind, byKindAfter: after.byKind, curve: accuracy },
    last10: { reward: mean(tail.map((h) => h.rewardMean)), klRef: mean(tail.map((h) => h.klRef)), clipFraction: mean(tail.map((h) => h.clipFraction)), entropy: mean(tail.map((h) => h.entropy)) },
    samples: { before: before.samples, after: after.samples },
    ...alg.report?.({ wallSeconds: wall, log }),
    history,
    files: { weights: shown(file), resume: shown(resumeOut), reward: shown(join(opts.outDir, "reward.svg")), kl: shown(join(opts.outDir, "kl.svg")) },
  };
  writeFileSync(join(opts.outDir, "run.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(opts.outDir, "reward.svg"),
    lineChart({
      title: `${alg.name}: reward and held-out exact match (--config ${configName})`,
      xLabel: "step",
      yLabel: "reward / accuracy",
      series: [
        { name: "training reward (mean)", points: history.map((h) => [h.step, h.rewardMean]) },
        { name: "held-out exact match", points: accuracy, dashed: true, markers: true },
      ],
    }),
  );
  writeFileSync(
    join(opts.outDir, "kl.svg"),
    lineChart({
      title: `${alg.name}: KL to the reference, clip fraction, entropy`,
      xLabel: "step",
      yLabel: "nats / fraction",
      series: [
        { name: "KL to reference", points: history.map((h) => [h.step, h.klRef]) },
        { name: "clip fraction", points: history.map((h) => [h.step, h.clipFraction]) },
        { name: "entropy", points: history.map((h) => [h.step, h.entropy]), dashed: true },
      ],
    }),
  );
  policy.dispose();
  reference.dispose();
  log("");
  log(`${alg.name}: ${step} steps in ${wall.toFixed(1)} s (setup ${setupSeconds.toFixed(1)} s)`);
  log(`  held-out exact match ${(100 * before.accuracy).toFixed(1)}% → ${(100 * after.accuracy).toFixed(1)}% (${report.accuracy.gainPoints >= 0 ? "+" : ""}${report.accuracy.gainPoints} points)`);
  if (after.unseen > 0) log(`  on the ${after.unseen} held-out prompts not in the training file: ${(100 * before.unseenAccuracy!).toFixed(1)}% → ${(100 * after.unseenAccuracy!).toFixed(1)}%`);
  else log(`  (every held-out question of these kinds is also in the training file: this measures the trained prompts, not generalisation)`);
  log(`  by kind: ${Object.keys(after.byKind).map((k) => `${k} ${before.byKind[k].correct}→${after.byKind[k].correct}/${after.byKind[k].total}`).join(", ")}`);
  log(`  last 10 steps: reward ${fmt(report.last10.reward)}, KL to reference ${fmt(report.last10.klRef, 4)}`);
  for (const s of after.samples.slice(0, 3)) log(`  ${JSON.stringify(s.question)} → ${JSON.stringify(s.response)} (expected ${JSON.stringify(s.answer)})`);
  log(`Wrote ${shown(file)}, reward.svg, kl.svg and run.json in ${shown(opts.outDir)}`);
  return { exitCode: 0, report };
}
