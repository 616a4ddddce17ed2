/**
 * The server's side of generation: one generation process (lib/serve/worker.ts) that decodes up to
 * `maxBatch` generations together (continuous batching, lib/serve/batcher.ts), and a bounded queue
 * in front of it. A request that finds the queue full is refused at once (the HTTP layer answers
 * 429 with Retry-After) instead of waiting without limit.
 *
 * A generation is cancelled by a message the process reads between two decoding steps; a process
 * that stops answering (a learner's piece that never returns) is killed after `stallMs`, and a
 * process that dies, however often, is started again with backoff, so the next request still gets
 * a model.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { FromWorker, GenerateJob, TokenLogprobs, ToWorker, WorkerStart } from "./protocol.js";

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));

export type Ready = Extract<FromWorker, { type: "ready" }>;
export type FinishReason = "eos" | "length" | "cancelled";

export interface EngineOptions {
  checkpoint: string;
  useReference?: string[];
  /** Generations that may wait behind the running ones (default 8). */
  maxQueue?: number;
  /** Generations decoded together, as the rows of one batch (default 4; 1 is one at a time, like MiniMind's server). */
  maxBatch?: number;
  /** Kill and restart the generation process when it sends nothing for this long (default 60 s). */
  stallMs?: number;
  /** COURSE_BACKEND for the generation process (default: this process's, else wasm). */
  backend?: string;
}

/** A generation: the job's prompt and sampling settings (protocol.ts), and where its tokens go. */
export interface GenerationRequest extends Omit<GenerateJob, "type" | "id"> {
  /** Called with every token as it arrives. */
  onToken: (token: number, logprobs?: TokenLogprobs) => void;
}

/** Thrown by `generate` when the queue is full. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("the server is busy: too many requests are waiting");
  }
}

/** Thrown by `generate` (or a generation's `done`) while no generation process can serve: shutting down, or restarts failing. */
export class UnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

/** Milliseconds before restart attempt `n` (0-based) of the generation process: 100 ms, doubling, at most 5 s. */
export function restartDelayMs(n: number): number {
  return Math.min(5000, 100 * 2 ** n);
}

/** Restart attempts in a row that may fail before requests are refused (503) instead of queued. */
const FAILED_STARTS_BEFORE_REFUSING = 3;

interface Pending {
  job: GenerateJob;
  req: GenerationRequest;
  resolve: (r: FinishReason) => void;
  reject: (e: Error) => void;
  cancelled: boolean;
  /** When it was sent to the generation process (performance.now() ms). */
  sentAt: number;
}

export class GenerationEngine {
  private child: ChildProcess | undefined;
  private readyInfo: Ready | undefined;
  /** A generation process is up and has loaded its model. */
  private alive = false;
  private readonly queue: Pending[] = [];
  /** Generations sent to the process, by job id, and when each was sent. */
  private readonly running = new Map<string, Pending>();
  private serial = 0;
  private stallTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Milliseconds the last few generations took, for Retry-After. */
  private readonly recent: number[] = [];
  /** When the places promised to refused clients free (performance.now() ms, ascending). */
  private readonly promised: number[] = [];
  /** Restart attempts in a row that failed (reset when one loads its model), and the last one's error. */
  private failedStarts = 0;
  private lastStartError = "";
  private restartTimer: NodeJS.Timeout | undefined;
  /** Restarts after a stall or a crash. */
  restarts = 0;
  /** Generations by how they ended (a cancel that came while queued counts as cancelled). */
  readonly stats = { finished: 0, cancelled: 0, failed: 0 };

  constructor(private readonly opts: EngineOptions) {}

  private get maxBatch(): number {
    return this.opts.maxBatch ?? 4;
  }

  /** Starts the generation process and waits until its model is loaded. */
  async start(): Promise<Ready> {
    const child = fork(WORKER, [JSON.stringify({ checkpoint: this.opts.checkpoint, useReference: this.opts.useReference ?? [], maxBatch: this.maxBatch } satisfies WorkerStart)], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, COURSE_BACKEND: this.opts.backend ?? process.env.COURSE_BACKEND ?? "wasm" },
    });
    this.child = child;
    // A generation process stuck in a learner's endless loop never sees the IPC channel close.
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    child.once("exit", () => process.removeListener("exit", killOnExit));
    const ready = await new Promise<Ready>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === "ready") resolve(m);
        else if (m.type === "fatal") reject(new Error(m.message));
      };
      child.on("message", onMessage);
      child.once("exit", (code) => reject(new Error(`the generation process exited (code ${code}) before its model was loaded`)));
    });
    child.removeAllListeners("message");
    child.removeAllListeners("exit");
    child.once("exit", () => process.removeListener("exit", killOnExit));
    if (this.closed) {
      child.kill("SIGKILL");
      throw new Error("the server closed while the generation process started");
    }
    child.on("message", (m: FromWorker) => this.onMessage(m));
    child.once("exit", () => this.onExit(child));
    this.readyInfo = ready;
    this.alive = true;
    return ready;
  }

  get info(): Ready {
    if (!this.readyInfo) throw new Error("the engine has not started");
    return this.readyInfo;
  }

  /** The generation process's pid (for its memory), while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether a generation process is up with its model loaded ("ok"), being replaced, or the engine is closed. */
  get state(): "ok" | "restarting" | "closed" {
    return this.closed ? "closed" : this.alive ? "ok" : "restarting";
  }

  /** Generations running or waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.queue.length };
  }

  /**
   * Runs a generation; resolves with why it stopped. Throws QueueFullError at once when the queue
   * is full. `handle.cancel()` stops it (while waiting or running).
   */
  generate(req: GenerationRequest): { done: Promise<FinishReason>; cancel: () => void } {
    if (this.closed) throw new UnavailableError("the server is shutting down", null);
    if (!this.alive && this.failedStarts >= FAILED_STARTS_BEFORE_REFUSING) {
      throw new UnavailableError(`the generation process is being restarted (${this.failedStarts} attempts failed so far: ${this.lastStartError})`, Math.ceil(restartDelayMs(this.failedStarts) / 1000));
    }
    const maxQueue = this.opts.maxQueue ?? 8;
    if (this.running.size >= this.maxBatch && this.queue.length >= maxQueue) throw new QueueFullError(this.retryAfter());
    const id = `job-${process.pid}-${++this.serial}`;
    let pending!: Pending;
    const done = new Promise<FinishReason>((resolve, reject) => {
      pending = {
        job: { type: "generate", id, promptIds: req.promptIds, maxNewTokens: req.maxNewTokens, temperature: req.temperature, topP: req.topP, topK: req.topK, seed: req.seed, logprobs: req.logprobs },
        req,
        resolve,
        reject,
        cancelled: false,
        sentAt: 0,
      };
    });
    this.queue.push(pending);
    this.pump();
    return { done, cancel: () => this.cancel(pending) };
  }

  /**
   * Seconds a refused client should wait before trying again, so that clients who honour it find a
   * place. A place frees each time a generation ends: the oldest running one ends after what remains
   * of a recent generation's time, the next ones a generation's time / maxBatch apart. Every refusal is promised the
   * next place not yet promised to an earlier refusal (promises lapse once their time has come), so
   * a crowd refused together is told to come back spread over the places, not all at once.
   */
  private retryAfter(): number {
    const now = performance.now();
    while (this.promised.length > 0 && this.promised[0] <= now) this.promised.shift();
    const generationMs = this.recent.length > 0 ? this.recent.reduce((a, b) => a + b, 0) / this.recent.length : 1000;
    const oldest = Math.min(now, ...[...this.running.values()].map((p) => p.sentAt));
    const firstFree = now + Math.max(0, generationMs - (now - oldest));
    const at = this.promised.length > 0 ? Math.max(firstFree, this.promised[this.promised.length - 1] + generationMs / this.maxBatch) : firstFree;
    this.promised.push(at);
    return Math.max(1, Math.ceil((at - now) / 1000));
  }

  private cancel(p: Pending): void {
    if (p.cancelled) return;
    p.cancelled = true;
    const i = this.queue.indexOf(p);
    if (i >= 0) {
      this.queue.splice(i, 1);
      this.stats.cancelled++;
      p.resolve("cancelled");
      return;
    }
    if (this.running.get(p.job.id) === p) this.tell({ type: "cancel", id: p.job.id });
  }

  private tell(m: ToWorker): void {
    if (this.child?.connected) this.child.send(m);
  }

  /** Sends waiting generations to the process while it has rows free. */
  private pump(): void {
    if (!this.child || !this.alive) return;
    while (this.running.size < this.maxBatch && this.queue.length > 0) {
      const next = this.queue.shift()!;
      next.sentAt = performance.now();
      this.running.set(next.job.id, next);
      this.tell(next.job);
      if (this.running.size === 1) this.armStallTimer();
    }
  }

  private armStallTimer(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.onStall(), this.opts.stallMs ?? 60_000);
  }

  private finish(id: string, reason: FinishReason | Error): void {
    const p = this.running.get(id);
    if (!p) return;
    this.running.delete(id);
    if (this.running.size === 0) clearTimeout(this.stallTimer);
    this.recent.push(performance.now() - p.sentAt);
    if (this.recent.length > 8) this.recent.shift();
    if (reason instanceof Error) this.stats.failed++;
    else if (reason === "cancelled") this.stats.cancelled++;
    else this.stats.finished++;
    if (reason instanceof Error) p.reject(reason);
    else p.resolve(reason);
    this.pump();
  }

  private onMessage(m: FromWorker): void {
    if (!("id" in m)) return;
    const p = this.running.get(m.id);
    if (!p) return;
    if (m.type === "token") {
      this.armStallTimer();
      if (!p.cancelled) p.req.onToken(m.token, m.logprobs);
    } else if (m.type === "done") this.finish(m.id, m.reason);
    else if (m.type === "error") this.finish(m.id, new Error(m.message));
  }

  private onStall(): void {
    const child = this.child;
    if (!child) return;
    console.error(`generation process: no token for ${(this.opts.stallMs ?? 60_000) / 1000} s, restarting it`);
    child.kill("SIGKILL");
  }

  private onExit(child: ChildProcess): void {
    if (child !== this.child) return;
    this.child = undefined;
    this.alive = false;
    if (this.closed) return;
    this.restarts++;
    clearTimeout(this.stallTimer);
    for (const lost of this.running.values()) {
      this.stats.failed++;
      lost.reject(new Error("the generation process stopped during this generation (it was restarted)"));
    }
    this.running.clear();
    this.scheduleRestart();
  }

  /**
   * Starts a replacement after restartDelayMs(failed attempts so far); a replacement that dies
   * while it loads (or fails to load) schedules the next attempt, for as long as the engine is open.
   */
  private scheduleRestart(): void {
    this.restartTimer = setTimeout(() => {
      this.start().then(
        () => {
          this.failedStarts = 0;
          this.pump();
        },
        (err: unknown) => {
          if (this.closed) return;
          this.failedStarts++;
          this.lastStartError = err instanceof Error ? err.message : String(err);
          console.error(`generation process: restart ${this.failedStarts} failed (${this.lastStartError}); trying again in ${restartDelayMs(this.failedStarts)} ms`);
          if (this.failedStarts >= FAILED_STARTS_BEFORE_REFUSING) {
            const refusal = new UnavailableError(`the generation process could not be restarted: ${this.lastStartError}`, Math.ceil(restartDelayMs(this.failedStarts) / 1000));
            for (const p of this.queue.splice(0)) p.reject(refusal);
          }
          this.scheduleRestart();
        },
      );
    }, restartDelayMs(this.failedStarts));
  }

  /** Stops the generation process; whatever runs or waits is rejected with an UnavailableError (the client is told). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.stallTimer);
    clearTimeout(this.restartTimer);
    const closing = new UnavailableError("the server is shutting down", null);
    for (const p of this.queue.splice(0)) p.reject(closing);
    for (const p of this.running.values()) {
      this.stats.failed++;
      p.reject(closing);
    }
    this.running.clear();
    const child = this.child;
    this.child = undefined;
    // A child that a terminal's Ctrl-C already ended has a signalCode and no exitCode: do not wait for it.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      // A process stuck in a step (or stopped) does not act on SIGTERM: SIGKILL it after 2 s.
      const force = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(force);
    }
  }
}
