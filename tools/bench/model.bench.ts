/**
 * Training speed of the tiny MiniMindTS (vocab 512, hidden 128, 2 layers, 4 heads over 2 kv heads,
 * seq 64, batch 16): steps/s of forward + backward + clip + AdamW on the cpu and wasm backends,
 * with the fast attention core (lib/model/fast-attention.ts) and with lesson 11's reference
 * attention; the same step split over two worker processes (lib/train/workers.ts, `--workers 2`);
 * beside the same model and step in PyTorch (tools/bench/model_torch.py) with Debian's generic
 * BLAS and with OpenBLAS on one thread, and OpenBLAS on two, each BLAS selected for its own process
 * by LD_LIBRARY_PATH. Then the profile of one wasm step by op kind (tools/bench/step-profile.ts),
 * one attention layer with each core, and an RL policy update in one process and in two.
 * All rows are medians measured in this one run (paired rows step in turn, so both see the same
 * machine load); a torch row is skipped, with a note, when PyTorch or that BLAS is missing.
 */
import { spawn, spawnSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import { miniMindConfig, type MiniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { AdamW, trainStep } from "../../lib/model/train.js";
import { fastAttention } from "../../lib/model/fast-attention.js";
import { attention, type AttentionWeights } from "../../solutions/lesson-11/attention.js";
import { ropeFrequencies } from "../../solutions/lesson-12/rope.js";
import { stepOn } from "../../lib/model/step.js";
import { clipGradNorm } from "../../solutions/lesson-14/clip.js";
import { GradientWorkers, YOUNG_GENERATION } from "../../lib/train/workers.js";
import { resolveRun, runningPieces } from "../../lib/model/pieces.js";
import { policyGradientsHere, POLICY_LOGPS_HOMES, type PolicyBatch, type PolicyLogpsFunctions, type PolicyStep } from "../../lib/rl/policy-batch.js";
import { policyGradientsAcross } from "../../lib/rl/policy-workers.js";
import { formatProfile, profileStep } from "./step-profile.js";
import { ROOT } from "../../grader/engine/paths.js";
import { Rng } from "../../lib/random.js";
import { registerWasmKernels } from "../../lib/wasm-kernels.js";

const TINY: Partial<MiniMindConfig> = { vocabSize: 512, hiddenSize: 128, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 64 };
const [BATCH, SEQ] = [16, 64];

interface Row {
  label: string;
  medianMs: number;
  runs: number;
}

/** A model, optimiser and batch ready for timed training steps on the active backend. */
export function trainer(fastAttention: boolean): { step: () => void; dispose: () => void } {
  const model = MiniMindTS.init(miniMindConfig(TINY), 1, { fastAttention });
  const optimizer = new AdamW(model.trainableVariables());
  const rng = new Rng(3);
  const ids = tf.tensor2d(Array.from({ length: BATCH * SEQ }, () => rng.int(0, 511)), [BATCH, SEQ], "int32");
  return { step: () => void trainStep(model, optimizer, ids, ids, 5e-4, clipGradNorm), dispose: () => (tf.dispose(ids), model.dispose()) };
}

const label = (backend: string, fastAttention: boolean) => `TypeScript, ${backend}, one process, ${fastAttention ? `fast attention (${backend === "wasm" ? "compiled core" : "grouped queries"})` : "reference attention (lesson 11)"}`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median ms of each of `fns`, run in turn `runs` times (after one warm-up) so all see the same machine load. */
function interleaved(fns: Array<() => void>, runs: number): number[] {
  fns.forEach((f) => f());
  const samples = fns.map(() => [] as number[]);
  for (let r = 0; r < runs; r++) {
    fns.forEach((f, i) => {
      const t0 = performance.now();
      f();
      samples[i].push(performance.now() - t0);
    });
  }
  return samples.map(median);
}

export async function useBackend(backend: "cpu" | "wasm"): Promise<void> {
  if (backend === "wasm") {
    await import("@tensorflow/tfjs-backend-wasm");
    // The course's wasm kernels, as lib/backend.ts's initBackend registers them for training.
    registerWasmKernels();
  }
  if (!(await tf.setBackend(backend))) throw new Error(`the ${backend} backend did not start`);
}

/** Median ms of one training step with each attention core. */
async function measureSteps(backend: "cpu" | "wasm", runs: number, cores: boolean[]): Promise<Row[]> {
  await useBackend(backend);
  const trainers = cores.map(trainer);
  const medians = interleaved(trainers.map((t) => t.step), runs);
  trainers.forEach((t) => t.dispose());
  return cores.map((fast, i) => ({ label: label(backend, fast), medianMs: medians[i], runs }));
}

/**
 * Median ms of one step in two processes (lib/train/workers.ts: each computes the gradients of 8 of
 * the 16 sequences, rank 0 combines, clips and steps AdamW) and, in turn with it, of the same step
 * in one process: the same global batch, the same machine load.
 */
async function measureTwoWorkers(runs: number): Promise<Row[]> {
  await useBackend("wasm");
  const config = miniMindConfig(TINY);
  const rng = new Rng(3);
  const ids = Int32Array.from({ length: BATCH * SEQ }, () => rng.int(0, 511));
  const samples = Array.from({ length: BATCH }, (_, r) => ({ inputIds: ids.slice(r * SEQ, (r + 1) * SEQ), labels: ids.slice(r * SEQ, (r + 1) * SEQ) }));
  const model = MiniMindTS.init(config, 1);
  const optimizer = new AdamW(model.trainableVariables());
  const variables = model.trainableVariables();
  const pool = await GradientWorkers.start(2, { config, useReference: [], backend: "wasm" });
  const single = trainer(true);
  const order = samples.map((_, i) => i);
  const samplesMs: number[][] = [[], []];
  try {
    for (let r = -1; r < runs; r++) {
      let t0 = performance.now();
      const { grads } = await pool.gradients(samples, order, variables, (input, labels) => model.loss(input, labels).loss);
      const gradTensors = grads.map((g, i) => tf.tensor(g, variables[i].shape, "float32"));
      const clipped = clipGradNorm(gradTensors, 1.0);
      optimizer.step(clipped.grads.map((g) => g.dataSync() as Float32Array), 5e-4);
      tf.dispose([...gradTensors, ...clipped.grads, clipped.totalNorm]);
      if (r >= 0) samplesMs[0].push(performance.now() - t0);
      t0 = performance.now();
      single.step();
      if (r >= 0) samplesMs[1].push(performance.now() - t0);
    }
  } finally {
    pool.close();
    single.dispose();
    model.dispose();
  }
  return [
    { label: "TypeScript, wasm, two worker processes (each 8 of the 16 sequences)", medianMs: median(samplesMs[0]), runs },
    { label: "TypeScript, wasm, one process, measured in turn with the two workers", medianMs: median(samplesMs[1]), runs },
  ];
}

/**
 * Median ms of an RL stage's policy update (GRPO's loss and gradient, nothing applied) on GRPO's
 * default 8 prompts × 8 samples, 64 rows of 64 tokens scored on their last 32, in one process
 * (lib/rl/policy-batch.ts) and, in turn with it, split over two processes at the log-probs
 * (lib/rl/policy-workers.ts, `--workers 2`).
 */
async function measurePolicyUpdate(runs: number): Promise<Row[]> {
  await useBackend("wasm");
  const config = miniMindConfig(TINY);
  type Fns = PolicyLogpsFunctions & { grpoPolicyLoss: (p: tf.Tensor2D, o: tf.Tensor2D, r: tf.Tensor2D, a: tf.Tensor1D, m: tf.Tensor2D, eps: number, beta: number) => tf.Scalar };
  const { pieces, fns } = await resolveRun<Fns>(runningPieces(config), { perTokenLogps: POLICY_LOGPS_HOMES.perTokenLogps, grpoPolicyLoss: "lesson-24" }, { useReference: ["all"] });
  const model = MiniMindTS.init(config, 1, { pieces });
  const [B, R] = [64, 32];
  const rng = new Rng(5);
  const ids = tf.tensor2d(Int32Array.from({ length: B * SEQ }, () => rng.int(0, 511)), [B, SEQ], "int32");
  const attentionMask = tf.ones([B, SEQ]) as tf.Tensor2D;
  const [old, ref] = [0, 1].map(() => tf.tensor2d(rng.normals(B * R, -6, 0.1), [B, R]));
  const advantages = tf.tensor1d(rng.normals(B, 0, 1));
  const mask = tf.ones([B, R]) as tf.Tensor2D;
  const batch: PolicyBatch = { ids, attentionMask, read: { lastTokens: R } };
  const lossOf = (lp: tf.Tensor2D) => fns.grpoPolicyLoss(lp, old, ref, advantages, mask, 0.2, 0.1);
  const pool = await GradientWorkers.start(2, { config, useReference: ["all"], backend: "wasm", policyFunctions: { perTokenLogps: POLICY_LOGPS_HOMES.perTokenLogps } });
  const samplesMs: number[][] = [[], []];
  const done = (s: PolicyStep) => tf.dispose([...s.grads, s.policyLogps]);
  try {
    for (let r = -1; r < runs; r++) {
      let t0 = performance.now();
      const here = policyGradientsHere(model, fns, batch, model.trainableVariables(), lossOf);
      here.grads.forEach((g) => g.dataSync());
      if (r >= 0) samplesMs[0].push(performance.now() - t0);
      done(here);
      t0 = performance.now();
      done(await policyGradientsAcross(pool, model, fns, batch, lossOf));
      if (r >= 0) samplesMs[1].push(performance.now() - t0);
    }
  } finally {
    pool.close();
    model.dispose();
    tf.dispose([ids, attentionMask, old, ref, advantages, mask]);
  }
  const what = `GRPO policy update, ${B} rows × ${SEQ} tokens (loss on the last ${R}), wasm`;
  return [
    { label: `${what}: one process`, medianMs: median(samplesMs[0]), runs },
    { label: `${what}: two workers, split at the log-probs`, medianMs: median(samplesMs[1]), runs },
  ];
}

/**
 * Median ms of one wasm step while tools/bench/busy-twin.ts, a second process with the same young
 * generation as training's, runs the same steps one after another; or why there is no such row.
 */
async function measureBesideTwin(runs: number): Promise<Row | string> {
  await useBackend("wasm");
  const twin = spawn(process.execPath, [...YOUNG_GENERATION, "--import", "tsx", join(ROOT, "tools", "bench", "busy-twin.ts")], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  twin.stderr.on("data", (d: Buffer) => (err += d.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      twin.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      twin.on("exit", (code) => reject(new Error(`it exited (code ${code}): ${err.trim().split("\n").pop() ?? ""}`)));
    });
  } catch (e) {
    return `no row beside a second process: tools/bench/busy-twin.ts did not start, ${(e as Error).message}`;
  }
  const single = trainer(true);
  try {
    const [ms] = interleaved([single.step], runs);
    return { label: "TypeScript, wasm, one process, while a second process runs the same steps", medianMs: ms, runs };
  } finally {
    single.dispose();
    twin.kill("SIGKILL");
  }
}

/** Where one wasm step's milliseconds go (tools/bench/step-profile.ts), averaged over `runs` steps. */
async function profileWasmStep(runs: number): Promise<string[]> {
  await useBackend("wasm");
  const rng = new Rng(3);
  const ids = Int32Array.from({ length: BATCH * SEQ }, () => rng.int(0, 511));
  const profile = await profileStep((pieces) => {
    const model = MiniMindTS.init(miniMindConfig(TINY), 1, { pieces });
    const optimizer = new AdamW(model.trainableVariables());
    return {
      step: (phase) => {
        const batch = phase("stage the batch", () => tf.tensor2d(ids, [BATCH, SEQ], "int32"));
        stepOn(model.trainableVariables(), optimizer, () => model.loss(batch, batch).loss, 5e-4, clipGradNorm, 1.0, phase);
        batch.dispose();
      },
      dispose: () => model.dispose(),
    };
  }, runs);
  return formatProfile(`Profile of one wasm step (mean of ${runs})`, profile);
}

/** Median ms of one attention layer's forward + backward at the bench's sizes, reference vs fast core. */
async function measureAttentionLayer(runs: number): Promise<Row[]> {
  await useBackend("wasm");
  const config = miniMindConfig(TINY);
  const rng = new Rng(4);
  const H = config.hiddenSize;
  const D = config.headDim;
  const [Hq, Hkv] = [config.numAttentionHeads, config.numKeyValueHeads];
  const t = (shape: number[], std: number) => tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), 0, std), shape);
  const weights = { wq: t([Hq * D, H], 0.1), wk: t([Hkv * D, H], 0.1), wv: t([Hkv * D, H], 0.1), wo: t([H, Hq * D], 0.1), qNorm: tf.ones([D]), kNorm: tf.ones([D]) } as AttentionWeights;
  const x = t([BATCH, SEQ, H], 1) as tf.Tensor3D;
  const table = ropeFrequencies(D, SEQ, config.ropeTheta);
  const opts = { numHeads: Hq, numKvHeads: Hkv, cos: table.cos, sin: table.sin };
  const layer = (f: typeof attention) => () =>
    tf.tidy(() => {
      tf.grad((input) => tf.sum(f(input as tf.Tensor3D, weights, opts).output))(x).dataSync();
    });
  const [reference, fast] = interleaved([layer(attention), layer(fastAttention)], runs);
  tf.dispose([...Object.values(weights), x, table.cos, table.sin]);
  const what = `one attention layer, forward + backward, wasm`;
  return [
    { label: `${what}: reference (lesson 11)`, medianMs: reference, runs },
    { label: `${what}: fast (compiled core on wasm)`, medianMs: fast, runs },
  ];
}

/**
 * Debian's BLAS builds, each chosen for one PyTorch process only through LD_LIBRARY_PATH (the
 * system-wide `update-alternatives` choice is left alone): the reference BLAS, and OpenBLAS
 * (`apt-get install -y libopenblas0-pthread`), a learner's real alternative.
 */
const BLAS = {
  generic: { dirs: ["/usr/lib/x86_64-linux-gnu/blas", "/usr/lib/x86_64-linux-gnu/lapack"], install: "libblas3" },
  openblas: { dirs: ["/usr/lib/x86_64-linux-gnu/openblas-pthread"], install: "libopenblas0-pthread" },
} as const;

/** Median ms of one PyTorch step with the given BLAS and thread count, or why there is none. */
function measureTorch(config: MiniMindConfig, runs: number, blas: keyof typeof BLAS, threads = 1): Row | string {
  const python = process.env.COURSE_PYTHON ?? "/usr/bin/python3";
  const { dirs, install } = BLAS[blas];
  if (!dirs.every((d) => existsSync(d))) return `no PyTorch + ${blas} row: ${dirs[0]} is missing (apt-get install -y ${install})`;
  const env = { ...process.env, LD_LIBRARY_PATH: [...dirs, process.env.LD_LIBRARY_PATH ?? ""].filter((d) => d !== "").join(":"), OPENBLAS_NUM_THREADS: String(threads) };
  const args = [JSON.stringify({ ...TINY, intermediateSize: config.intermediateSize }), BATCH, SEQ, runs, threads].map(String);
  const r = spawnSync(python, [join(ROOT, "tools", "bench", "model_torch.py"), ...args], { encoding: "utf8", env });
  if (r.status !== 0) return `no PyTorch + ${blas} row: ${python} tools/bench/model_torch.py failed (${(r.stderr || r.error?.message || "").trim().split("\n").pop()})`;
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { median_ms: number; threads: number; torch: string; libblas: string };
  return { label: `PyTorch ${out.torch}, ${out.threads} thread${out.threads === 1 ? "" : "s"}, ${blas === "openblas" ? "OpenBLAS" : "generic BLAS"} (${out.libblas.replace("/usr/lib/x86_64-linux-gnu/", "")})`, medianMs: out.median_ms, runs };
}

export default async function bench(): Promise<string> {
  const previous = tf.getBackend();
  const loadBefore = loadavg()[0];
  const config = miniMindConfig(TINY);
  const rows: Row[] = [];
  const profile = await profileWasmStep(3);
  const layers = await measureAttentionLayer(15);
  const policyUpdate = await measurePolicyUpdate(7);
  rows.push(...(await measureSteps("wasm", 9, [true, false])));
  rows.push(...(await measureTwoWorkers(9)));
  const besideTwin = await measureBesideTwin(9);
  if (typeof besideTwin !== "string") rows.push(besideTwin);
  const torch = [measureTorch(config, 9, "generic"), measureTorch(config, 9, "openblas"), measureTorch(config, 9, "openblas", 2)];
  rows.push(...(await measureSteps("cpu", 2, [true])));
  await tf.setBackend(previous);
  const torchRows = torch.filter((t): t is Row => typeof t !== "string");
  rows.push(...torchRows);
  // The ratio is to the fastest PyTorch row: the alternative a learner would really use.
  const fastest = torchRows.reduce<Row | undefined>((b, r) => (b === undefined || r.medianMs < b.medianMs ? r : b), undefined);
  const width = Math.max(...rows.map((r) => r.label.length));
  const lines = rows.map((r) => {
    const ratio = fastest ? `  ${(r.medianMs / fastest.medianMs).toFixed(2)}× the time of ${fastest.label.includes("OpenBLAS") ? "PyTorch+OpenBLAS" : "PyTorch"}` : "";
    return `  ${r.label.padEnd(width)}  ${(1000 / r.medianMs).toFixed(2).padStart(6)} steps/s  (median ${r.medianMs.toFixed(0)} ms of ${r.runs})${ratio}`;
  });
  const layerLines = [...layers, ...policyUpdate].map((r) => `  ${r.label.padEnd(width)}  ${r.medianMs.toFixed(1).padStart(6)} ms   (median of ${r.runs})`);
  // Other jobs on the machine change absolute times (and whether a second process finds a free core).
  const load = `machine load average (1 min): ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${availableParallelism()} cores`;
  const title = `MiniMindTS training step (vocab 512, hidden 128, 2 layers, 4/2 heads, batch ${BATCH}×${SEQ}; forward + backward + clip + AdamW)`;
  return [title, `  ${load}`, ...lines, ...[...torch, besideTwin].filter((t): t is string => typeof t === "string").map((t) => `  ${t}`), "", ...profile, "", "Where the fast attention helps (same sizes), and the RL stages' policy update (--workers):", ...layerLines].join("\n");
}
