/**
 * Where one training step's milliseconds go, by op kind: every kernel of forward + backward timed
 * by `tf.profile` (the wasm backend times each kernel synchronously), and the host phases
 * (staging the batch, reading the gradients out, clipping, AdamW) timed around their calls.
 *
 * A kernel's kind comes from its name and shapes (a matMul with batch 1 is 2-D, else batched; a
 * transpose, slice or gather is a layout copy) and from the model piece it ran in: the pieces'
 * forward calls are wrapped to mark a region (norms, feed-forward, loss), and every tape node
 * recorded inside a region keeps it, so its gradient kernels are counted there too (a Softmax node's
 * gradient is "softmax" wherever it ran). Kernels in no piece's region are attention, the
 * embedding and the residual stream. PROFILE_DETAIL=1 adds a row per kernel name, region and input
 * shapes.
 */
import * as tf from "../../lib/tf.js";
import { REFERENCE_PIECES } from "../../lib/model/pieces.js";
import type { ModelPieces } from "../../lib/model/types.js";
import { ATTENTION_KERNEL_NAME } from "../../lib/model/fast-attention-kernel.js";

/** The step to profile (it runs WARM_UP_STEPS times unprofiled first) and how to free what it holds. */
export interface ProfiledTrainer {
  /** One step; calls `phase(name, fn)` around each host phase so the profile can time it. */
  step: (phase: <T>(name: string, fn: () => T) => T) => void;
  dispose: () => void;
}

type Region = "norms" | "feed-forward" | "loss";

/** Steps run before the profiled ones: the first few pay for compiling JavaScript and WebAssembly. */
const WARM_UP_STEPS = 3;

const ATTENTION_FORWARD = "attention core (compiled, WebAssembly SIMD), forward";
const ATTENTION_BACKWARD = "attention core (compiled, WebAssembly SIMD), backward";

/** The engine's private state that the profile reads (tfjs-core 4.22's Engine). */
interface EngineState {
  state: { activeProfile: { kernels: unknown[] }; activeTape: Array<{ kernelName: string; gradient?: (dys: tf.Tensor[]) => unknown }> | null };
  addTapeNode: (...args: unknown[]) => void;
}

interface KernelRecord {
  name: string;
  inputShapes: Array<number[] | null>;
  kernelTimeMs: number;
}

/** The op kind a kernel counts under. */
function kindOf(k: KernelRecord, region: string | undefined): string {
  if (k.name === ATTENTION_KERNEL_NAME) return ATTENTION_FORWARD;
  if (k.name === "BatchMatMul" || k.name === "_FusedMatMul") {
    const a = k.inputShapes[0] ?? [];
    const batch = a.slice(0, -2).reduce((p, d) => p * d, 1);
    return batch > 1 ? "batched matMul (attention scores, weighted sum)" : "2-D matMul (projections, FFN, lm_head)";
  }
  if (region === "softmax") return "softmax (attention)";
  if (region === "norms") return "RMSNorm (without matMuls)";
  if (region === "loss") return "loss: log-softmax, one-hot, mean";
  if (["Transpose", "Reshape", "Slice", "Concat", "Tile", "GatherV2", "UnsortedSegmentSum", "Cast", "Pad", "Identity"].includes(k.name)) return "layout: transpose, slice, concat, gather";
  return region === "feed-forward" ? "elementwise in the FFN (SiLU, gate)" : "elementwise & reductions elsewhere (RoPE, residual, masks)";
}

/** Pieces whose rmsNorm, feedForward and causalLmLoss mark their region around the call. */
function markedPieces(enter: (r: Region) => void, leave: () => void): ModelPieces {
  const wrap = <F extends (...args: never[]) => unknown>(fn: F, region: Region): F =>
    ((...args: Parameters<F>) => {
      enter(region);
      try {
        return fn(...args);
      } finally {
        leave();
      }
    }) as F;
  return { ...REFERENCE_PIECES, rmsNorm: wrap(REFERENCE_PIECES.rmsNorm, "norms"), feedForward: wrap(REFERENCE_PIECES.feedForward, "feed-forward"), causalLmLoss: wrap(REFERENCE_PIECES.causalLmLoss, "loss") };
}

export interface StepProfile {
  /** ms by kind, kernels and host phases, largest first. */
  rows: Array<{ kind: string; ms: number; kernels: number }>;
  /** Wall time of the profiled step. */
  wallMs: number;
}

/**
 * Profiles one step of `make(pieces)` (the trainer is built with the marking pieces). Kernel times
 * are tf.profile's; the rest of the wall time (the engine's bookkeeping, the tape, garbage
 * collection) is reported as one row. The fast attention core stays in use: the attention piece is
 * not wrapped.
 */
export async function profileStep(make: (pieces: ModelPieces) => ProfiledTrainer, runs = 3): Promise<StepProfile> {
  const engine = tf.engine() as unknown as EngineState;
  const stack: string[] = [];
  const events: Array<[number, string | undefined]> = [];
  const here = () => engine.state.activeProfile.kernels.length;
  const mark = () => events.push([here(), stack[stack.length - 1]]);
  const enter = (r: string) => (stack.push(r), mark());
  const leave = () => (stack.pop(), mark());
  const inRegion = <T>(r: string, f: () => T): T => {
    enter(r);
    try {
      return f();
    } finally {
      leave();
    }
  };
  const trainer = make(markedPieces(enter, leave));
  let attentionBackwardMs = 0;
  const noPhase = <T>(_: string, fn: () => T) => fn();
  // Unprofiled steps first, so that what is timed is compiled code, not the first calls' tier-up.
  for (let w = 0; w < WARM_UP_STEPS; w++) trainer.step(noPhase);

  // Tape nodes remember the region they were recorded in; their gradients run in it.
  const original = engine.addTapeNode;
  engine.addTapeNode = function (this: EngineState, ...args: unknown[]) {
    original.apply(this, args);
    const node = this.state.activeTape![this.state.activeTape!.length - 1];
    const region = node.kernelName === "Softmax" || node.kernelName === "LogSoftmax" ? (stack.includes("loss") ? "loss" : "softmax") : stack[stack.length - 1];
    const gradient = node.gradient;
    if (gradient && node.kernelName === ATTENTION_KERNEL_NAME) {
      node.gradient = (dys) => {
        const t0 = performance.now();
        try {
          return gradient(dys);
        } finally {
          attentionBackwardMs += performance.now() - t0;
        }
      };
      return;
    }
    if (!gradient || !region) return;
    // A gradient returns one closure per input; the kernels run when the tape calls them.
    node.gradient = (dys) => {
      const closures = gradient(dys) as Record<string, () => tf.Tensor>;
      return Object.fromEntries(Object.entries(closures).map(([input, f]) => [input, () => inRegion(region, f)]));
    };
  };
  const totals = new Map<string, { ms: number; kernels: number }>();
  const add = (kind: string, ms: number, kernels = 1) => {
    const t = totals.get(kind) ?? { ms: 0, kernels: 0 };
    totals.set(kind, { ms: t.ms + ms / runs, kernels: t.kernels + kernels / runs });
  };
  let wallMs = 0;
  try {
    for (let r = 0; r < runs; r++) {
      events.length = 0;
      attentionBackwardMs = 0;
      const hostMs = new Map<string, number>();
      const phase = <T>(name: string, fn: () => T): T => {
        const t0 = performance.now();
        try {
          return inRegion(`host: ${name}`, fn);
        } finally {
          hostMs.set(name, (hostMs.get(name) ?? 0) + performance.now() - t0);
        }
      };
      const t0 = performance.now();
      const profile = await tf.profile(() => trainer.step(phase));
      const wall = performance.now() - t0;
      wallMs += wall / runs;
      const kernels = profile.kernels as unknown as KernelRecord[];
      let e = 0;
      let region: string | undefined;
      let kernelMs = 0;
      kernels.forEach((k, i) => {
        while (e < events.length && events[e][0] <= i) region = events[e++][1];
        if (region?.startsWith("host: ")) return; // inside a host phase's own time
        // A customGrad op (linear's matMul, logSoftmax) is recorded as a scope around its own kernels: count those only.
        if (tf.getKernel(k.name, tf.getBackend()) === undefined && k.name !== ATTENTION_KERNEL_NAME) return;
        add(kindOf(k, region), k.kernelTimeMs);
        if (process.env.PROFILE_DETAIL) add(`  detail ${region ?? "-"} ${k.name} ${JSON.stringify(k.inputShapes)}`, k.kernelTimeMs);
        kernelMs += k.kernelTimeMs;
      });
      let hostTotal = 0;
      for (const [name, ms] of hostMs) {
        add(`host: ${name}`, ms, 0);
        hostTotal += ms;
      }
      if (attentionBackwardMs > 0) add(ATTENTION_BACKWARD, attentionBackwardMs, 0);
      add("engine bookkeeping, tape, GC (wall − the rest)", Math.max(0, wall - kernelMs - hostTotal - attentionBackwardMs), 0);
    }
  } finally {
    engine.addTapeNode = original;
    trainer.dispose();
  }
  const rows = [...totals].map(([kind, t]) => ({ kind, ms: t.ms, kernels: Math.round(t.kernels) })).sort((a, b) => b.ms - a.ms);
  return { rows, wallMs };
}

/** The profile as lines: ms, share of the wall time and kernel count per kind. */
export function formatProfile(title: string, p: StepProfile): string[] {
  const width = Math.max(...p.rows.map((r) => r.kind.length));
  return [
    `${title}: ${p.wallMs.toFixed(0)} ms wall (tf.profile on; kernels timed one by one)`,
    ...p.rows.map((r) => `  ${r.kind.padEnd(width)}  ${r.ms.toFixed(1).padStart(7)} ms  ${((100 * r.ms) / p.wallMs).toFixed(1).padStart(5)}%${r.kernels > 0 ? `  ${String(r.kernels).padStart(4)} kernels` : ""}`),
  ];
}
