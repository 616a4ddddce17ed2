/**
 * The WebAssembly build of the attention core (attention-core.as.ts, compiled by
 * `npm run build-kernels` into attention-core.wasm.ts): the same loops as lib/model/
 * fast-attention-kernel.ts's typed-array forward and backward, four float32 lanes at a time.
 * Measured at the tiny model's sizes: see `npm run bench` (one attention layer, forward + backward).
 *
 * Each call copies its inputs into the module's memory, runs, and copies its outputs out, so the
 * module holds nothing between calls (the forward's p travels with the caller to the backward).
 */
import { ATTENTION_CORE_WASM_BASE64 } from "./attention-core.wasm.js";

/** Sizes of one core call: q [B, S, Hq, D], k and v [B, T, Hkv, D]. */
export interface CoreShape {
  B: number;
  S: number;
  T: number;
  Hq: number;
  Hkv: number;
  D: number;
}

interface Exports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  forward(B: number, S: number, T: number, Hq: number, Hkv: number, D: number, q: number, k: number, v: number, keep: number, out: number, probs: number, scores: number): void;
  backward(B: number, S: number, T: number, Hq: number, Hkv: number, D: number, q: number, k: number, v: number, probs: number, dOut: number, dq: number, dk: number, dv: number, dScores: number, dp: number): void;
}

/** The compiled attention core, in float32 arrays in and out. */
export interface WasmAttentionCore {
  forward(c: CoreShape, q: Float32Array, k: Float32Array, v: Float32Array, keep: ArrayLike<number> | null): { out: Float32Array; probs: Float32Array };
  backward(c: CoreShape, q: Float32Array, k: Float32Array, v: Float32Array, probs: Float32Array, dOut: Float32Array): [Float32Array, Float32Array, Float32Array];
}

/** Places arrays one after another (16-byte aligned) from the module's heap base, growing its memory to fit. */
function arena(wasm: Exports, floatsEach: number[]): number[] {
  let at = wasm.heapBase();
  const offsets = floatsEach.map((n) => {
    at = Math.ceil(at / 16) * 16;
    const offset = at;
    at += n * 4;
    return offset;
  });
  const missing = at - wasm.memory.buffer.byteLength;
  if (missing > 0) wasm.memory.grow(Math.ceil(missing / 65536));
  return offsets;
}

function instantiate(): Exports {
  const bytes = Uint8Array.from(atob(ATTENTION_CORE_WASM_BASE64), (c) => c.charCodeAt(0));
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as Exports;
}

let loaded: WasmAttentionCore | null | undefined;

/**
 * The compiled core, or null where it cannot run: a head size that is not a multiple of 4, or a
 * WebAssembly without SIMD (then the caller uses the typed-array loops).
 */
export function wasmAttentionCore(D: number): WasmAttentionCore | null {
  if (D % 4 !== 0) return null;
  if (loaded === undefined) {
    try {
      loaded = wrap(instantiate());
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

function wrap(wasm: Exports): WasmAttentionCore {
  const view = (offset: number, n: number) => new Float32Array(wasm.memory.buffer, offset, n);
  return {
    forward(c, q, k, v, keep) {
      const { B, S, T, Hq, Hkv, D } = c;
      const nProbs = B * Hq * S * T;
      const [qAt, kAt, vAt, keepAt, outAt, probsAt, scoresAt] = arena(wasm, [q.length, k.length, v.length, keep === null ? 0 : B * T, q.length, nProbs, 2 * T]);
      view(qAt, q.length).set(q);
      view(kAt, k.length).set(k);
      view(vAt, v.length).set(v);
      if (keep !== null) view(keepAt, B * T).set(keep);
      wasm.forward(B, S, T, Hq, Hkv, D, qAt, kAt, vAt, keep === null ? 0 : keepAt, outAt, probsAt, scoresAt);
      return { out: view(outAt, q.length).slice(), probs: view(probsAt, nProbs).slice() };
    },
    backward(c, q, k, v, probs, dOut) {
      const { B, S, T, Hq, Hkv, D } = c;
      const [qAt, kAt, vAt, probsAt, dOutAt, dqAt, dkAt, dvAt, dScoresAt, dpAt] = arena(wasm, [q.length, k.length, v.length, probs.length, q.length, q.length, k.length, v.length, S * T, T]);
      view(qAt, q.length).set(q);
      view(kAt, k.length).set(k);
      view(vAt, v.length).set(v);
      view(probsAt, probs.length).set(probs);
      view(dOutAt, q.length).set(dOut);
      view(dkAt, k.length).fill(0);
      view(dvAt, v.length).fill(0);
      wasm.backward(B, S, T, Hq, Hkv, D, qAt, kAt, vAt, probsAt, dOutAt, dqAt, dkAt, dvAt, dScoresAt, dpAt);
      return [view(dqAt, q.length).slice(), view(dkAt, k.length).slice(), view(dvAt, v.length).slice()];
    },
  };
}
