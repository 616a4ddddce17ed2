/**
 * Data-parallel training on several processes, MiniMind's DistributedDataParallel in miniature
 * (trainer/train_pretrain.py with `torchrun --nproc_per_node N`): `npm run train -- <stage> --workers N`.
 *
 * The training process is rank 0; it forks N − 1 gradient workers (lib/train/worker-main.ts), each
 * with its own copy of the model on its own core. Every micro-batch is a global batch of N × B
 * samples, split as MiniMind's DistributedSampler splits the epoch's order: rank r takes positions
 * r, r + N, r + 2N, … of the batch. Each rank computes the loss and gradients of its part; the
 * gradients are combined (the all-reduce) in rank 0, which clips and steps AdamW alone and sends
 * the new weights with the next batch. Only rank 0 holds optimizer state, so checkpoints, resume
 * and Ctrl-C are the one-process run's.
 *
 * The all-reduce weights each rank's gradient by the labels it counted: the result is the gradient
 * of the whole global batch's mean loss, the same number one process computes on the same N × B
 * samples. MiniMind's all-reduce averages the ranks equally, which is the same whenever the ranks
 * count equally many labels (full-length pretraining rows); with SFT's padding it is not, and this
 * keeps the one-process curve. Not bit for bit: each rank sums its own rows' contributions to a
 * weight gradient and the two sums are then added, a different rounding order from one sum over
 * all rows (float addition is not associative), so curves agree to float rounding that grows
 * slowly over steps (test/train-workers.test.ts states the tolerance).
 *
 * The numbers do not travel over Node's IPC channel: 2 MB of weights out and 2 MB of gradients back
 * took 20–40 ms a step through it (measured), more than a worker's half of the tiny model's step
 * saves. Rank 0 writes the weights into one file that every worker reads, and each worker writes
 * its gradients into a file of its own that rank 0 reads (`AllReduceFiles`), in a folder on
 * tmpfs (/dev/shm) where Linux has it: memory, not disk, about 1 ms each way. The channel carries
 * only the small messages (the rows of each part, the loss, when a file is ready); the message
 * order says when a file may be read. Processes, not worker_threads with shared memory, because
 * tsx's loader does not reach worker threads on Node 20.
 */
import { fork, type ChildProcess } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tf from "../tf.js";
import type { MiniMindConfig } from "../model/config.js";
import { valuesToReadNow } from "../model/variable-memory.js";
import type { PolicyRows } from "../rl/policy-batch.js";
import type { Sample } from "./data.js";
import { TrainError } from "./errors.js";

/** Rows of samples packed as the model reads them: [rows, length] int32, row-major. */
export interface PackedRows {
  inputIds: Int32Array;
  labels: Int32Array;
  rows: number;
  length: number;
}

/** The samples `ids` (equal lengths) as one [rows, length] batch. */
export function packRows(samples: Sample[], ids: readonly number[]): PackedRows {
  const length = samples[ids[0]].inputIds.length;
  const inputIds = new Int32Array(ids.length * length);
  const labels = new Int32Array(ids.length * length);
  ids.forEach((id, r) => {
    inputIds.set(samples[id].inputIds, r * length);
    labels.set(samples[id].labels, r * length);
  });
  return { inputIds, labels, rows: ids.length, length };
}

/** Labels the next-token loss counts: all but each row's first, and not −100 (the loss's shift). */
export function countedLabels(p: PackedRows): number {
  let n = 0;
  for (let r = 0; r < p.rows; r++) for (let t = 1; t < p.length; t++) if (p.labels[r * p.length + t] !== -100) n++;
  return n;
}

/** Rank r's part of a global batch: positions r, r + N, r + 2N, … (MiniMind's DistributedSampler). */
export function rankPart<T>(batch: readonly T[], rank: number, worldSize: number): T[] {
  return batch.filter((_, m) => m % worldSize === rank);
}

/**
 * The files of one run's all-reduce (see the module comment), in `folder`: `weights.f32` (rank 0
 * writes, every worker reads) and `grads-<rank>.f32` (that worker writes, rank 0 reads). Each holds
 * float32 arrays one after another, in the order of the model's trainable variables. Files are
 * written in place and read into a buffer kept for each file: a fresh 2 MB buffer or a truncated
 * file costs page faults, which made one exchange take 3 to 30 ms here instead of about 2 (measured).
 */
export class AllReduceFiles {
  private readonly buffers = new Map<string, Float32Array>();

  constructor(readonly folder: string) {}

  /** A new folder for a run's files, named after rank 0's process: on tmpfs where there is one. */
  static create(): AllReduceFiles {
    return new AllReduceFiles(mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), `course-allreduce-${process.pid}-`)));
  }

  get weights(): string {
    return join(this.folder, "weights.f32");
  }

  grads(rank: number): string {
    return join(this.folder, `grads-${rank}.f32`);
  }

  /** Writes `arrays` one after another into `file` from its start. */
  write(file: string, arrays: Float32Array[]): void {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT);
    try {
      let at = 0;
      for (const a of arrays) at += writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), 0, a.byteLength, at);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The first Σ sizes floats of `file` as arrays of `sizes` floats: views of this file's buffer,
   * which the next read of the same file overwrites. A shorter file is an error that says so.
   */
  read(file: string, sizes: number[]): Float32Array[] {
    const total = sizes.reduce((n, s) => n + s, 0);
    let all = this.buffers.get(file);
    if (all?.length !== total) this.buffers.set(file, (all = new Float32Array(total)));
    const fd = openSync(file, "r");
    try {
      const got = readSync(fd, new Uint8Array(all.buffer), 0, total * 4, 0);
      if (got !== total * 4) throw new TrainError(`${file} holds ${got} bytes where ${total} float32 numbers were expected`);
    } finally {
      closeSync(fd);
    }
    let at = 0;
    return sizes.map((s) => all.subarray(at, (at += s)));
  }

  /** Removes the folder and what is in it (safe to call again, and from every process). */
  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** One rank's result: its mean loss, the labels it counted, and the gradient of every variable. */
export interface PartGradients {
  loss: number;
  counted: number;
  grads: Float32Array[];
}

/** Loss and gradients of `lossOf` on `part`, with respect to `variables` (read out as typed arrays). */
export function partGradients(variables: tf.Variable[], lossOf: (inputIds: tf.Tensor2D, labels: tf.Tensor2D) => tf.Scalar, part: PackedRows): PartGradients {
  const inputIds = tf.tensor2d(part.inputIds, [part.rows, part.length], "int32");
  const labels = tf.tensor2d(part.labels, [part.rows, part.length], "int32");
  const { value, grads } = tf.variableGrads(() => lossOf(inputIds, labels), variables);
  const result = { loss: value.dataSync()[0], counted: countedLabels(part), grads: variables.map((v) => Float32Array.from(valuesToReadNow(grads[v.name]))) };
  tf.dispose([value, inputIds, labels, ...Object.values(grads)]);
  return result;
}

/**
 * The all-reduce: Σ_r (n_r / Σn) · g_r and the same mix of the losses, for each rank's counted
 * labels n_r (a rank with no rows has n_r = 0 and is left out). The sum is written into the first
 * counted rank's arrays (no new 2 MB a step), each element rounded to float32 after each term.
 */
export function combineParts(parts: PartGradients[]): { loss: number; grads: Float32Array[] } {
  const total = parts.reduce((n, p) => n + p.counted, 0);
  const [first, ...rest] = parts.filter((p) => p.counted > 0);
  const w0 = first.counted / total;
  let loss = w0 * first.loss;
  for (const out of first.grads) for (let j = 0; j < out.length; j++) out[j] = w0 * out[j];
  for (const p of rest) {
    const w = p.counted / total;
    loss += w * p.loss;
    p.grads.forEach((g, i) => {
      const out = first.grads[i];
      for (let j = 0; j < g.length; j++) out[j] += w * g[j];
    });
  }
  return { loss, grads: first.grads };
}

/** What a worker needs to build its copy of the model (and, from rank 0, where the run's files are). */
export interface WorkerInit {
  config: MiniMindConfig;
  /** The lessons whose reference runs (--use-reference), so the worker resolves the same functions. */
  useReference: string[];
  /** The backend rank 0 trains on. */
  backend: string;
  /**
   * An RL run's: the functions that read the policy's log-probs (lib/rl/policy-batch.ts
   * POLICY_LOGPS_HOMES, name → lesson) the worker resolves beside the model's pieces.
   */
  policyFunctions?: Record<string, string>;
}

/**
 * Messages to a worker. A supervised step's and a `logps` request's weights are in the run's
 * weights file when it arrives; `vjp` uses the weights and rows of the `logps` request before it.
 */
export type ToWorker = ({ type: "init"; folder: string } & WorkerInit) | (WorkerRequest & { id: number });

/** The work a worker is asked for (a message without the id `GradientWorkers.ask` numbers it with). */
export type WorkerRequest = { type: "step"; part: PackedRows } | { type: "logps"; rows: PolicyRows } | { type: "vjp"; upstream: Float32Array };

/** Messages from a worker: a step's or a vjp's gradients are in the worker's gradients file when it arrives. */
export type FromWorker =
  | { type: "ready" }
  | { type: "grads"; id: number; loss: number; counted: number }
  | { type: "logps"; id: number; values: Float32Array }
  | { type: "vjp"; id: number }
  | { type: "error"; message: string };

const WORKER_MAIN = join(import.meta.dirname, "worker-main.ts");
/**
 * V8's young generation for training processes, as package.json's train, capstone and bench
 * scripts give rank 0: a training step makes many short-lived objects (tensors, tape entries), and
 * the scavenges that collect them run on helper threads that two busy processes on two cores fight
 * over. Two one-process steps run at once took 152 and 160 ms a step with 16 MB semi-spaces, 135
 * and 140 ms with 32 MB, against about 130 ms alone (measured, Node 20).
 */
export const YOUNG_GENERATION = ["--max-semi-space-size=32"];
/** tsx's loader, by its resolved URL, so the worker starts whatever the current folder. */
const TSX = import.meta.resolve("tsx");

/** One forked worker, its pending reply and how it ended. */
interface Worker {
  child: ChildProcess;
  rank: number;
  waiting?: { resolve: (m: FromWorker) => void; reject: (e: Error) => void };
  ended?: string;
}

/** Ranks 1 … N − 1 of a data-parallel run (see the module comment); rank 0 is the caller. */
export class GradientWorkers {
  private nextId = 0;

  private constructor(
    private readonly workers: Worker[],
    private readonly files: AllReduceFiles,
  ) {}

  /** Forks `worldSize − 1` workers and waits until each has built its model. */
  static async start(worldSize: number, init: WorkerInit): Promise<GradientWorkers> {
    const files = AllReduceFiles.create();
    const workers: Worker[] = [];
    for (let rank = 1; rank < worldSize; rank++) {
      // Ctrl-C in a terminal reaches the whole process group: the workers ignore it (worker-main.ts)
      // and rank 0 saves; they exit when rank 0 disconnects or dies.
      const child = fork(WORKER_MAIN, [String(rank)], { execArgv: [...YOUNG_GENERATION, "--import", TSX], serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
      const worker: Worker = { child, rank };
      child.on("message", (m: FromWorker) => {
        const w = worker.waiting;
        worker.waiting = undefined;
        if (m.type === "error") w?.reject(new TrainError(`worker ${rank}: ${m.message}`));
        else w?.resolve(m);
      });
      child.on("exit", (code, signal) => {
        worker.ended = `worker ${rank} exited (${signal ?? `code ${code}`}); the run's last checkpoint is as it was, and --resume continues from it`;
        worker.waiting?.reject(new TrainError(worker.ended));
        worker.waiting = undefined;
      });
      workers.push(worker);
    }
    const pool = new GradientWorkers(workers, files);
    try {
      await Promise.all(workers.map((w) => pool.request(w, { type: "init", folder: files.folder, ...init }).reply));
    } catch (err) {
      pool.close();
      throw err;
    }
    return pool;
  }

  /** Number of processes in the run, rank 0 included. */
  get worldSize(): number {
    return this.workers.length + 1;
  }

  /**
   * Loss and gradients of the global batch `ids` of `samples`: rank 0's part here with `lossOf`,
   * the others' in the workers at the current weights of `variables`, combined (the all-reduce).
   */
  async gradients(samples: Sample[], ids: readonly number[], variables: tf.Variable[], lossOf: (inputIds: tf.Tensor2D, labels: tf.Tensor2D) => tf.Scalar): Promise<{ loss: number; grads: Float32Array[] }> {
    const N = this.worldSize;
    this.publishWeights(variables);
    const sizes = variables.map((v) => v.size);
    const requests = this.workers.map((w) => {
      const part = rankPart(ids, w.rank, N);
      if (part.length === 0) return { sent: Promise.resolve(), reply: Promise.resolve<PartGradients>({ loss: 0, counted: 0, grads: [] }) };
      const { sent, reply } = this.ask(w.rank, { type: "step", part: packRows(samples, part) });
      return { sent, reply: reply.then((m): PartGradients => ({ ...(m as { loss: number; counted: number }), grads: this.gradientsOf(w.rank, sizes) })) };
    });
    // Rank 0 computes once the parts are written out (its work blocks the event loop).
    await Promise.all(requests.map((r) => r.sent));
    const own = partGradients(variables, lossOf, packRows(samples, rankPart(ids, 0, N)));
    return combineParts([own, ...(await Promise.all(requests.map((r) => r.reply)))]);
  }

  /** Writes the current values of `variables` into the weights file every worker reads. */
  publishWeights(variables: tf.Variable[]): void {
    this.files.write(this.files.weights, variables.map(valuesToReadNow));
  }

  /** The gradients worker `rank` wrote, as arrays of `sizes` floats (valid until its next write is read). */
  gradientsOf(rank: number, sizes: number[]): Float32Array[] {
    return this.files.read(this.files.grads(rank), sizes);
  }

  /**
   * Sends `work` to worker `rank` (1 … N − 1) under a fresh id: `sent` settles once it is written
   * out, `reply` with the worker's answer (the worker's error or exit rejects it).
   */
  ask(rank: number, work: WorkerRequest): { sent: Promise<void>; reply: Promise<FromWorker> } {
    return this.request(this.workers[rank - 1], { ...work, id: this.nextId++ });
  }

  /**
   * Ends every worker now: a disconnect alone is processed on the event loop, which the caller may
   * block for long after (a bench's next measurement), so each worker is also sent SIGTERM.
   */
  close(): void {
    for (const w of this.workers) {
      if (w.child.connected) w.child.disconnect();
      if (!w.ended) w.child.kill("SIGTERM");
    }
    this.files.remove();
  }

  /** Sends `message`; `sent` settles once it is written out, `reply` with the worker's answer. */
  private request(w: Worker, message: ToWorker): { sent: Promise<void>; reply: Promise<FromWorker> } {
    if (w.ended) {
      const failed = Promise.reject(new TrainError(w.ended));
      failed.catch(() => undefined);
      return { sent: Promise.resolve(), reply: failed };
    }
    let sent: Promise<void> = Promise.resolve();
    const reply = new Promise<FromWorker>((resolve, reject) => {
      w.waiting = { resolve, reject };
      sent = new Promise((done) =>
        w.child.send(message, (err) => {
          if (err) reject(new TrainError(`worker ${w.rank}: ${err.message}`));
          done();
        }),
      );
    });
    return { sent, reply };
  }
}

/** Where a run keeps the workers it starts (`--workers`), once it has started them. */
export interface WorkerSlot {
  pool?: GradientWorkers;
}

/** Runs `run` with an empty WorkerSlot and closes whatever workers it put there, however `run` ends. */
export async function closingWorkers<T>(run: (slot: WorkerSlot) => Promise<T>): Promise<T> {
  const slot: WorkerSlot = {};
  try {
    return await run(slot);
  } finally {
    slot.pool?.close();
  }
}
