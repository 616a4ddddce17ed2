/**
 * One training run of any stage, in the order of trainer/train_pretrain.py: settings → config →
 * (resume state) → model → data → epoch loop (lr schedule, accumulation, clipping, AdamW, logging,
 * checkpoints) → exported weights, loss curve and run.json.
 *
 * Every lesson function it runs comes through lib/resolver.ts (the learner's when it passes
 * grading, else the reference) and the run prints whose they are: the model's pieces (lessons 3,
 * 9-13), the schedule and clipping (lesson 14), and the resume arithmetic (lesson 15).
 *
 * Resume is exact: the resume file holds the weights, AdamW's moments and step, any half-summed
 * accumulation, and the data position (epoch, micro-batch); every epoch's order is rebuilt from
 * seed + epoch, so on the cpu backend a resumed run ends with the same bits as an uninterrupted one.
 */
import { withCtrlC, type StopSignal } from "./interrupt.js";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as tf from "../tf.js";
import { ROOT } from "../course/paths.js";
import { describeRun, type FunctionChoice } from "../resolver.js";
import { resolveRun, runningPieces } from "../model/pieces.js";
import { MiniMindTS } from "../model/model.js";
import type { ClipGradNorm } from "../model/types.js";
import { AdamW } from "../model/train.js";
import { decodeSafetensors, type StoredTensor } from "../model/safetensors.js";
import { lineChart } from "../svg.js";
import { checkShapes, loadResume, resumePath, saveResume, saveWeights, weightsPath, type ResumeMeta, type ResumeState } from "./checkpoint.js";
import { epochOrder, type Sample } from "./data.js";
import { TrainError } from "./errors.js";
import { progress } from "./progress.js";
import { PRESETS, presetConfig, type TrainSettings } from "./settings.js";
import type { RunOptions, RunResult, Stage, StageContext } from "./stage.js";
import { buildStageModel, stageLoss, type PostTrainingStage } from "./stage-hooks.js";
import { decodeText, trainTokenizer } from "./tokenizer.js";
import { GradientWorkers, packRows } from "./workers.js";

interface LessonFns {
  cosineLr: (step: number, total: number, lr: number) => number;
  shouldStepOptimizer: (step: number, k: number) => boolean;
  shouldFlushTail: (last: number, start: number, k: number) => boolean;
  clipGradNorm: ClipGradNorm;
  skipBatches: (order: readonly number[], batchSize: number, skip: number) => number[][];
  rescaleResumeStep: (step: number, saved: number, current: number) => number;
}

const LESSON_FNS: { [K in keyof LessonFns]: string } = {
  cosineLr: "lesson-14",
  shouldStepOptimizer: "lesson-14",
  shouldFlushTail: "lesson-14",
  clipGradNorm: "lesson-14",
  skipBatches: "lesson-15",
  rescaleResumeStep: "lesson-15",
};


/** The resume file of `stage` in `dir` (its name carries the hidden size, so it is looked for). */
function findResume(dir: string, stage: Stage): string {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    throw new TrainError(`--resume ${dir}: no such folder`);
  }
  const found = files.filter((f) => f.startsWith(`${stage.weightName}_`) && f.endsWith("_resume.safetensors")).sort();
  if (found.length === 0) throw new TrainError(`--resume ${dir}: no ${stage.name} checkpoint there (no ${stage.weightName}_<hidden>_resume.safetensors)`);
  return join(dir, found[0]);
}

function batchTensors(samples: Sample[], ids: number[]): { inputIds: tf.Tensor2D; labels: tf.Tensor2D } {
  const p = packRows(samples, ids);
  return { inputIds: tf.tensor2d(p.inputIds, [p.rows, p.length], "int32"), labels: tf.tensor2d(p.labels, [p.rows, p.length], "int32") };
}

/** Mean next-token loss over `samples`, in batches of `batchSize` (weighted by each batch's counted tokens). */
function heldOutLoss(model: MiniMindTS, samples: Sample[], batchSize: number): number {
  if (samples.length === 0) return NaN;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < samples.length; i += batchSize) {
    const ids = Array.from({ length: Math.min(batchSize, samples.length - i) }, (_, j) => i + j);
    const batch = batchTensors(samples, ids);
    // Labels that count: every one but the first of each row that is not −100 (the loss shift).
    let n = 0;
    for (const id of ids) n += samples[id].labels.slice(1).filter((l) => l !== -100).length;
    const loss = tf.tidy(() => model.loss(batch.inputIds, batch.labels).logitsLoss.dataSync()[0]);
    tf.dispose([batch.inputIds, batch.labels]);
    sum += loss * n;
    count += n;
  }
  return sum / Math.max(count, 1);
}

function generateSamples(model: MiniMindTS, ctx: StageContext, stage: Stage): Array<{ prompt: string; text: string }> {
  const pick = model.sampler({ seed: 7, temperature: 0.7, topK: 20, topP: 0.9 });
  return stage.prompts(ctx).map(({ prompt, ids }) => {
    const input = tf.tensor2d([ids], undefined, "int32");
    const maxNewTokens = Math.max(1, ctx.settings.maxSeqLen - ids.length);
    const out = model.generate(input, { maxNewTokens, eosTokenId: ctx.tok.eosId, pickToken: pick });
    const text = decodeText(ctx.tok, Array.from(out.dataSync()).slice(ids.length));
    tf.dispose([input, out]);
    return { prompt, text };
  });
}

/** Named tensors as stored ones (a model's `params`, or a stage's variables by name). */
function weightsOf(named: Record<string, tf.Tensor>): Record<string, StoredTensor> {
  const out: Record<string, StoredTensor> = {};
  for (const [name, v] of Object.entries(named)) out[name] = { shape: [...v.shape], data: Float32Array.from(v.dataSync() as Float32Array) };
  return out;
}

/**
 * Puts the weights of `file` (the kept weights file) back into the variables of the same names: a
 * plain model's file holds every parameter, a LoRA run's its adapters alone.
 */
function restoreWeights(named: Record<string, tf.Variable>, file: string): void {
  const { tensors } = decodeSafetensors(readFileSync(file));
  for (const [name, t] of Object.entries(tensors)) {
    const v = named[name];
    if (!v) continue;
    tf.tidy(() => v.assign(tf.tensor(t.data, t.shape, "float32")));
  }
}

/** A path as the user should see it: relative to the repository root when inside it. */
const show = (p: string) => {
  const r = relative(ROOT, p);
  return r === "" ? "." : r.startsWith("..") ? p : r;
};

/** Runs the stage (see the module comment). Throws TrainError for bad input, before changing any file. */
export async function runStage(opts: RunOptions): Promise<RunResult> {
  // Ctrl-C is ours from the start: one before the first micro-batch (while the data loads or the
  // "before" samples are drawn) is answered in words, not by Node's silent exit.
  return withCtrlC((signal) => trainStage(opts, signal));
}

async function trainStage(opts: RunOptions, signal: StopSignal): Promise<RunResult> {
  const { stage } = opts;
  const runName = opts.name ?? stage.name;
  const tok = trainTokenizer();
  const log = (line: string) => console.log(line);

  // 1. Settings, config and resume state: every check happens before anything is written.
  let resume: ResumeState | undefined;
  let resumeFile: string | undefined;
  if (opts.resumeDir) {
    resumeFile = findResume(opts.resumeDir, stage);
    resume = loadResume(resumeFile);
    if (resume.meta.stage !== stage.name) throw new TrainError(`${resumeFile} is a ${resume.meta.stage} checkpoint, not ${stage.name}`);
  }
  const configName = opts.configName ?? (resume ? (resume.meta.settings.configName as string) : "tiny");
  const preset = PRESETS[configName];
  if (!preset) throw new TrainError(`unknown --config ${configName}: have ${Object.keys(PRESETS).join(", ")}`, 2);
  const settings: TrainSettings = resume
    ? { ...(resume.meta.settings as unknown as TrainSettings), ...(opts.steps !== undefined ? { steps: opts.steps } : {}), ...(opts.overrides?.keep ? { keep: opts.overrides.keep } : {}) }
    : { ...preset.settings, ...stage.settings, ...opts.overrides, ...(opts.steps !== undefined ? { steps: opts.steps } : {}) };
  const config = resume ? resume.meta.config : presetConfig(preset, tok.vocabSize, settings.maxSeqLen);
  if (resume && opts.configName) checkShapes(resume.weights, presetConfig(preset, tok.vocabSize, settings.maxSeqLen), `checkpoint ${resumeFile}`, `--config ${configName}`);
  if (config.vocabSize !== tok.vocabSize) throw new TrainError(`the model has ${config.vocabSize} token ids, the tokenizer (${tok.name}) ${tok.vocabSize}`);
  const initial = resume ? resume.weights : undefined;
  const worldSize = opts.workers ?? 1;
  const hooks = stage as PostTrainingStage;
  if (worldSize > 1 && (hooks.buildModel || hooks.loss || hooks.trainable || stage.run)) throw new TrainError(`--workers is for stages that train the whole model on its next-token loss (pretrain, sft); ${stage.name} has a model or loss of its own`, 2);

  // 2. Whose functions run: the model's pieces, the loop's (lessons 14-15) and the stage's own.
  const resolved = await resolveRun<LessonFns & Record<string, unknown>>(runningPieces(config, { lmLoss: true }), { ...LESSON_FNS, ...stage.functions }, { useReference: opts.useReference });
  const choices: FunctionChoice[] = resolved.choices;
  const fns: LessonFns = resolved.fns;
  log(`npm run train -- ${stage.name}${runName !== stage.name ? ` (${runName})` : ""}: ${stage.summary}, on the ${tf.getBackend()} backend`);
  for (const line of describeRun(choices)) log(line);

  const ctx: StageContext = {
    tok,
    config,
    configName,
    settings,
    dataPath: opts.dataPath ?? (resume?.meta.settings.dataPath as string | undefined),
    fromPath: opts.fromPath ?? (resume?.meta.settings.fromPath as string | undefined),
    fns: resolved.fns,
    log,
  };
  const loaded = await stage.loadData(ctx);
  // A sample with no counted label (all −100 after the shift, e.g. a conversation whose reply was cut
  // off by maxSeqLen) would make its batch's mean loss 0/0 = NaN and poison the weights: leave it out.
  const counts = (x: Sample) => x.labels.some((l, i) => i > 0 && l !== -100);
  const data = { ...loaded, train: loaded.train.filter(counts), heldOut: loaded.heldOut.filter(counts) };
  const dropped = loaded.train.length - data.train.length + loaded.heldOut.length - data.heldOut.length;
  if (dropped > 0) log(`(left out ${dropped} sample${dropped === 1 ? "" : "s"} with no label to learn within ${settings.maxSeqLen} tokens: raise --max-seq-len to keep them)`);
  if (data.train.length === 0) throw new TrainError(`no training samples in ${data.source}${data.skipped > 0 ? ` (${data.skipped} malformed lines skipped)` : ""}`);
  const initialWeights = initial ?? stage.initialWeights?.(ctx);

  // 3. Model and optimiser.
  const weights: Record<string, tf.Tensor> = {};
  if (initialWeights) for (const [name, t] of Object.entries(initialWeights)) weights[name] = tf.tensor(t.data, t.shape, "float32");
  // A stage may build its own model (LoRA: adapters beside frozen weights); see lib/train/stage-hooks.ts.
  const built = buildStageModel(stage as PostTrainingStage, ctx, config, initialWeights ? weights : undefined, { pieces: resolved.pieces }, settings.seed);
  const model = built.model;
  tf.dispose(Object.values(weights));
  const variables = built.trainable;
  const names = variables.map((v) => Object.keys(built.named).find((n) => built.named[n] === v) ?? v.name);
  for (const line of built.describe?.() ?? []) log(line);
  const optimizer = new AdamW(variables);
  if (resume) optimizer.restore({ m: names.map((n) => resume!.expAvg[n]), v: names.map((n) => resume!.expAvgSq[n]), t: resume.meta.adamStep });
  const paramCount = variables.reduce((n, v) => n + v.size, 0);

  const B = settings.batchSize;
  const K = settings.accumulationSteps;
  const itersPerEpoch = Math.ceil(data.train.length / (B * worldSize));
  const totalSteps = settings.steps ?? settings.epochs * itersPerEpoch;
  log(`Model: --config ${configName} (${preset.summary}), vocab ${config.vocabSize} (${tok.name}): ${(paramCount / 1e6).toFixed(3)}M trainable parameters`);
  // The batch as this run uses it (a stage's own settings and the command line override the config's).
  log(`Data: ${data.source}: ${data.train.length} samples to train on, ${data.heldOut.length} held out; ${itersPerEpoch} batches of ${worldSize > 1 ? `${worldSize} workers × ` : ""}${B} × ${settings.maxSeqLen} tokens an epoch`);
  if (data.skipped > 0) log(`  skipped ${data.skipped} malformed line${data.skipped === 1 ? "" : "s"}: ${data.problems.join("; ")}${data.problems.length < data.skipped ? "; …" : ""}`);
  // The weights file holds the best held-out evaluation's weights unless --keep last (see TrainSettings.keep).
  const keepBest = (settings.keep ?? "best") === "best" && data.heldOut.length > 0;
  const keepNote = keepBest
    ? `; the weights file keeps the lowest held-out loss (evaluated every ${settings.evalEvery}; --keep last keeps the last, as MiniMind does)`
    : settings.keep === "last"
      ? "; the weights file keeps the last step (--keep last, as MiniMind)"
      : "; no held-out samples, so the weights file keeps the last step";
  log(`Run: ${totalSteps} micro-batches, lr ${settings.learningRate} on MiniMind's cosine, accumulation ${K}, clip ${settings.gradClip}, a checkpoint every ${settings.saveEvery}${keepNote}`);

  // 4. Position: where this process starts.
  let step = resume?.meta.step ?? 0;
  let epoch = resume?.meta.epoch ?? 0;
  let startInEpoch = resume ? fns.rescaleResumeStep(resume.meta.stepInEpoch, resume.meta.worldSize, worldSize) : 0;
  const losses: Array<[number, number]> = resume ? [...resume.meta.losses] : [];
  const heldOut: Array<[number, number]> = resume ? [...resume.meta.heldOut] : [];
  let tokensSeen = resume?.meta.tokensSeen ?? 0;
  const trainSecondsBefore = resume?.meta.trainSeconds ?? 0;
  if (resume) log(`Resuming ${show(resumeFile!)} at micro-batch ${step} (epoch ${epoch + 1}, batch ${startInEpoch} of it done${resume.meta.worldSize !== worldSize ? `: ${resume.meta.stepInEpoch} batches of a ${resume.meta.worldSize}-process run, rescaled to ${worldSize} (lesson 15's rescaleResumeStep)` : ""})`);

  const before = resume?.meta.before ?? { heldOutLoss: heldOutLoss(model, data.heldOut, B), samples: generateSamples(model, ctx, stage) };
  if (!resume) heldOut.push([0, before.heldOutLoss]);
  // A Ctrl-C that came while the data loaded or the "before" samples were drawn is delivered here.
  await new Promise((r) => setImmediate(r));
  if (signal.stop) {
    built.dispose();
    log(`Ctrl-C before the first micro-batch: nothing was trained and nothing written${resume ? ` (${show(resumeFile!)} is as it was)` : ""}; run the same command again to start${resume ? " from that checkpoint" : ""}`);
    return { exitCode: 130, report: {} };
  }
  // The best evaluation after training began (step 0 is the starting point, never kept).
  const bestOf = (points: Array<[number, number]>) => points.filter((p) => p[0] > 0 && Number.isFinite(p[1])).reduce<[number, number] | undefined>((b, p) => (b === undefined || p[1] < b[1] ? p : b), undefined);
  let best = bestOf(heldOut);

  mkdirSync(opts.outDir, { recursive: true });
  const files = { weights: weightsPath(opts.outDir, stage.weightName, config), resume: resumePath(opts.outDir, stage.weightName, config) };
  const accumulated: Float32Array[] | undefined = K > 1 ? variables.map((v) => new Float32Array(v.size)) : undefined;
  let pending = false;
  if (resume?.accumulated && accumulated) {
    names.forEach((n, i) => accumulated[i].set(resume!.accumulated![n]));
    pending = true;
  }

  const runSettings = { ...settings, configName, dataPath: ctx.dataPath, fromPath: ctx.fromPath };
  const started = performance.now();
  const trainSeconds = () => trainSecondsBefore + (performance.now() - started) / 1000;
  const save = (nextEpoch: number, nextInEpoch: number) => {
    const w = weightsOf(built.named);
    const state = optimizer.state();
    const meta: ResumeMeta = {
      format: 1,
      stage: stage.name,
      config,
      settings: runSettings,
      step,
      epoch: nextEpoch,
      stepInEpoch: nextInEpoch,
      adamStep: state.t,
      worldSize,
      rng: { seed: settings.seed, epoch: nextEpoch },
      tokensSeen,
      trainSeconds: trainSeconds(),
      losses,
      heldOut,
      before,
      trainable: names,
    };
    const byName = (arrays: Float32Array[]) => Object.fromEntries(names.map((n, i) => [n, arrays[i]]));
    saveResume(files.resume, { meta, weights: w, expAvg: byName(state.m), expAvgSq: byName(state.v), accumulated: pending && accumulated ? byName(accumulated) : undefined });
    if (!keepBest) saveWeights(files.weights, built.exportWeights ? weightsOf(built.exportWeights()) : w, config);
  };
  /** The weights file, now: written at each new best held-out loss when keeping the best. */
  const saveKept = () => saveWeights(files.weights, weightsOf(built.exportWeights ? built.exportWeights() : built.named), config);

  const optimizerStep = (lr: number) => {
    const gradTensors = accumulated!.map((g, i) => tf.tensor(g, variables[i].shape, "float32"));
    applyClipped(gradTensors, lr);
    tf.dispose(gradTensors);
    accumulated!.forEach((g) => g.fill(0));
    pending = false;
  };
  const applyClipped = (grads: tf.Tensor[], lr: number) => {
    const clipped = fns.clipGradNorm(grads, settings.gradClip);
    const arrays = clipped.grads.map((g) => Float32Array.from(g.dataSync() as Float32Array));
    tf.dispose([...clipped.grads, clipped.totalNorm]);
    optimizer.step(arrays, lr);
  };

  // Ranks 1 … N − 1 of a data-parallel run (lib/train/workers.ts); rank 0 is this process.
  if (worldSize > 1) log(`Data parallel: ${worldSize} processes, each computing the gradients of ${B} of every ${B * worldSize} samples; rank 0 combines them and steps`);
  const pool = worldSize > 1 ? await GradientWorkers.start(worldSize, { config, useReference: opts.useReference, backend: tf.getBackend() }) : undefined;
  /** One global batch's loss and its gradients (of loss / K), computed here or across the workers. */
  const batchGradients = async (ids: number[]): Promise<{ loss: number; gradList: tf.Tensor[] }> => {
    if (pool) {
      const r = await pool.gradients(data.train, ids, variables, (inputIds, labels) => stageLoss(hooks, ctx, model, inputIds, labels));
      return { loss: r.loss, gradList: r.grads.map((g, j) => tf.tidy(() => tf.div(tf.tensor(g, variables[j].shape, "float32"), K))) };
    }
    const batch = batchTensors(data.train, ids);
    const { value, grads } = tf.variableGrads(() => {
      const loss = stageLoss(hooks, ctx, model, batch.inputIds, batch.labels);
      return K > 1 ? tf.div(loss, K) : loss;
    }, variables);
    const loss = value.dataSync()[0] * K;
    tf.dispose([value, batch.inputIds, batch.labels]);
    return { loss, gradList: variables.map((v) => grads[v.name]) };
  };

  const bar = progress(totalSteps, step, settings.logEvery, opts.tty);
  let lr = fns.cosineLr(step, totalSteps, settings.learningRate);
  let stopped = false;
  try {
    while (step < totalSteps && !stopped) {
      const order = epochOrder(data.train.length, settings.seed, epoch);
      const batches = fns.skipBatches(order, B * worldSize, startInEpoch);
      const startStep = startInEpoch;
      let s = startInEpoch;
      for (let i = 0; i < batches.length && step < totalSteps; i++) {
        s++;
        step++;
        lr = fns.cosineLr(step, totalSteps, settings.learningRate);
        const { loss, gradList } = await batchGradients(batches[i]);
        if (accumulated) {
          gradList.forEach((g, j) => {
            const d = g.dataSync() as Float32Array;
            const acc = accumulated[j];
            for (let x = 0; x < acc.length; x++) acc[x] += d[x];
          });
          pending = true;
          if (fns.shouldStepOptimizer(s, K)) optimizerStep(lr);
        } else if (fns.shouldStepOptimizer(s, K)) applyClipped(gradList, lr);
        tf.dispose(gradList);
        tokensSeen += batches[i].length * settings.maxSeqLen;
        losses.push([step, loss]);

        const endOfEpoch = i === batches.length - 1;
        const endOfRun = step === totalSteps;
        // --stop-after saves like a Ctrl-C (a half-accumulated batch is kept for --resume, not flushed).
        const stopHere = step === opts.stopAfter;
        if ((endOfEpoch || endOfRun) && accumulated && fns.shouldFlushTail(s, startStep, K)) optimizerStep(lr);
        const [nextEpoch, nextInEpoch] = endOfEpoch ? [epoch + 1, 0] : [epoch, s];
        const seconds = trainSeconds() - trainSecondsBefore;
        bar.update({ step, loss, lr, tokensPerSecond: seconds > 0 ? (tokensSeen - (resume?.meta.tokensSeen ?? 0)) / seconds : 0 });
        if (step % settings.evalEvery === 0 || endOfRun || stopHere) {
          const point: [number, number] = [step, heldOutLoss(model, data.heldOut, B)];
          heldOut.push(point);
          const isBest = keepBest && Number.isFinite(point[1]) && (best === undefined || point[1] < best[1]);
          // Written before the resume file that records it, so a resume file never names a best that is not on disk.
          if (isBest) {
            best = point;
            saveKept();
          }
          bar.log(`step ${step}: held-out loss ${point[1].toFixed(4)}${isBest ? " (lowest so far: kept)" : keepBest && best ? ` (kept: step ${best[0]}, ${best[1].toFixed(4)})` : ""}`);
        }
        if (step % settings.saveEvery === 0 || endOfRun || signal.stop || stopHere) save(nextEpoch, nextInEpoch);
        if (signal.stop) {
          bar.log(`Ctrl-C: saved ${show(files.resume)} at micro-batch ${step}; continue with npm run train -- ${stage.name} --resume ${show(opts.outDir)}`);
          stopped = true;
          break;
        }
        opts.onStep?.(step);
        if (stopHere) break;
        await new Promise((r) => setImmediate(r)); // lets a Ctrl-C in between steps
      }
      if (step === opts.stopAfter) break;
      epoch++;
      startInEpoch = 0;
    }
  } finally {
    bar.stop();
    pool?.close();
  }
  if (stopped) {
    built.dispose();
    return { exitCode: 130, report: {} };
  }

  // 5. The end: the kept weights back in the model (when not the last), samples, curve, run.json.
  const last = heldOut[heldOut.length - 1];
  const kept = keepBest && best ? best : last;
  if (kept[0] !== last[0]) restoreWeights(built.named, files.weights);
  const after = { heldOutLoss: kept[1], samples: generateSamples(model, ctx, stage) };
  built.dispose();
  const wall = trainSeconds();
  const tail = losses.slice(-Math.min(50, losses.length)).map((p) => p[1]);
  const report = {
    stage: stage.name,
    ...(runName !== stage.name ? { name: runName } : {}),
    config: configName,
    model: config,
    settings: runSettings,
    tokenizer: tok.name,
    backend: tf.getBackend(),
    functions: choices.map((c) => ({ lesson: c.lesson, name: c.name, whose: c.source === "exercises" ? "yours" : "reference", why: c.why })),
    data: { source: data.source, train: data.train.length, heldOut: data.heldOut.length, skipped: data.skipped },
    parameters: paramCount,
    steps: step,
    scheduleSteps: totalSteps,
    resumedFrom: resume ? resume.meta.step : null,
    trainSeconds: Number(wall.toFixed(2)),
    secondsPerStep: Number((wall / Math.max(step, 1)).toFixed(4)),
    tokensPerSecond: Math.round(tokensSeen / Math.max(wall, 1e-9)),
    finalTrainingLoss: tail.reduce((a, b) => a + b, 0) / Math.max(tail.length, 1),
    heldOutLoss: { before: before.heldOutLoss, after: after.heldOutLoss, perplexityBefore: Math.exp(before.heldOutLoss), perplexityAfter: Math.exp(after.heldOutLoss) },
    lowestHeldOut: heldOut.reduce((b, p) => (p[1] < b[1] ? p : b), heldOut[0]),
    // What the weights file holds: the best evaluation's weights, or the last step's (--keep last).
    kept: { rule: keepBest ? "best" : "last", step: keepBest ? kept[0] : step, heldOutLoss: kept[1], lastStep: step, lastHeldOutLoss: last[1] },
    evaluations: heldOut,
    samples: before.samples.map((b, i) => ({ prompt: b.prompt, before: b.text, after: after.samples[i].text })),
    files: { weights: show(files.weights), resume: show(files.resume), lossCurve: show(join(opts.outDir, "loss.svg")) },
  };
  writeFileSync(join(opts.outDir, "run.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(opts.outDir, "loss.svg"),
    lineChart({
      title: `${runName}: loss (${runName !== stage.name ? `${stage.name}, ` : ""}--config ${configName})`,
      xLabel: "micro-batch",
      yLabel: "cross-entropy",
      series: [
        { name: "training loss", points: losses },
        { name: `held-out loss (${heldOut.length} evaluations)`, points: heldOut, dashed: true, markers: true },
      ],
      guides: keepBest && kept[0] !== last[0] ? [{ x: kept[0], label: `kept: step ${kept[0]}` }] : [],
    }),
  );
  log("");
  log(`Trained ${step} micro-batches in ${wall.toFixed(1)} s (${report.tokensPerSecond} tokens/s)${step < totalSteps ? `: stopped after ${step} of the schedule's ${totalSteps} (--stop-after); continue with npm run train -- ${stage.name} --resume ${show(opts.outDir)}` : ""}`);
  log(`  held-out loss ${before.heldOutLoss.toFixed(3)} → ${after.heldOutLoss.toFixed(3)} (perplexity ${Math.exp(before.heldOutLoss).toFixed(1)} → ${Math.exp(after.heldOutLoss).toFixed(1)})`);
  if (kept[0] !== last[0]) log(`  kept the weights of step ${kept[0]}, the lowest held-out loss (${kept[1].toFixed(3)}); it rose to ${last[1].toFixed(3)} by step ${last[0]}. The resume file holds step ${step}'s; --keep last keeps those, as MiniMind does`);
  log(`  training loss (last ${tail.length}) ${report.finalTrainingLoss.toFixed(3)}`);
  for (const s of report.samples) log(`  ${JSON.stringify(s.prompt)} → ${JSON.stringify(s.prompt + s.after)}`);
  log(`Wrote ${show(files.weights)}, ${show(files.resume)}, ${show(join(opts.outDir, "loss.svg"))} and ${show(join(opts.outDir, "run.json"))}`);
  return { exitCode: 0, report };
}
