/**
 * MiniMindTS as a whole: generation with and without the KV cache agrees, the fast paths (grouped
 * attention, the wasm UnsortedSegmentSum kernel) compute what the plain ones do, the linear layer
 * computes x·Wᵀ + b and its gradients on cpu and wasm, checkpoints round-trip through safetensors with MiniMind's names, and the
 * resolver picks the learner's functions only when they pass.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { registerWasmKernels } from "../lib/wasm-kernels.js";
import { miniMindConfig, type MiniMindConfig } from "../lib/model/config.js";
import { MiniMindTS } from "../lib/model/model.js";
import { initialParameters, parameterSpecs } from "../lib/model/params.js";
import { fastAttentionCore } from "../lib/model/fast-attention.js";
import { linear } from "../lib/model/linear.js";
import { decodeSafetensors, encodeSafetensors } from "../lib/model/safetensors.js";
import { loadModel, saveModel } from "../lib/model/checkpoint.js";
import { REFERENCE_PIECES, referenceProjectQkv, resolvePieces, resolveRun, runningPieces } from "../lib/model/pieces.js";
import { LessonsNotFinishedError } from "../lib/resolver.js";
import "./support/grading.js";
import type { ModelPieces, ProjectQkv } from "../lib/model/types.js";
import { ROOT, paths } from "../grader/engine/paths.js";
import { Rng } from "../lib/random.js";
import { generateStub } from "../lib/stubs.js";
import { attention, projectQkv, repeatKv } from "../solutions/lesson-11/attention.js";
import { rmsNorm } from "../solutions/lesson-9/rmsnorm.js";
import { causalLmLoss } from "../solutions/lesson-10/loss.js";
import { ropeFrequencies } from "../solutions/lesson-12/rope.js";
import { generate } from "../solutions/lesson-12/generate.js";
import { feedForward, moeFeedForward } from "../solutions/lesson-13/ffn.js";
import { sampleNextToken } from "../solutions/lesson-3/sampling.js";

// lib/ declares the pieces' signatures itself (it never imports solutions/): the references must fit them.
const REFERENCE_SIGNATURES: ModelPieces = { rmsNorm, causalLmLoss, attention, ropeFrequencies, generate, feedForward, moeFeedForward, sampleNextToken };
const PROJECT_QKV_SIGNATURE: ProjectQkv = projectQkv;

await initBackend("cpu");

const TINY: Partial<MiniMindConfig> = { vocabSize: 32, hiddenSize: 16, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, intermediateSize: 32, maxPositionEmbeddings: 64 };

/** A seeded tiny model; std 0.6 so that greedy choices depend on the whole context. */
function tinyModel(opts: { fastAttention?: boolean; config?: Partial<MiniMindConfig> } = {}): MiniMindTS {
  const config = miniMindConfig({ ...TINY, ...opts.config });
  const weights = initialParameters(config, 7, 0.6);
  const model = new MiniMindTS(config, weights, { fastAttention: opts.fastAttention });
  tf.dispose(Object.values(weights));
  return model;
}

function maxAbsDiff(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);
}

function normals(rng: Rng, shape: number[], std = 1): tf.Tensor {
  return tf.tensor(rng.normals(shape.reduce((p, d) => p * d, 1), 0, std), shape);
}

describe("model: generation with the KV cache", () => {
  const cases = [
    { name: "two prompts, no EOS", prompts: [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6]], leftPad: null, eos: null },
    { name: "left padding and a mask", prompts: [[1, 5, 9, 3, 7, 12], [0, 0, 1, 4, 4, 8], [0, 0, 0, 1, 20, 21]], leftPad: [0, 2, 3], eos: null },
    { name: "rows stopping at EOS", prompts: [[1, 5, 9, 3, 7], [1, 4, 4, 8, 6], [1, 20, 21, 22, 23]], leftPad: null, eos: 11 },
  ];
  for (const fast of [true, false]) {
    it.each(cases)(`gives the same tokens as recomputing every prefix: $name (${fast ? "fast" : "reference"} attention)`, ({ prompts, leftPad, eos }) => {
      const model = tinyModel({ fastAttention: fast });
      const ids = tf.tensor2d(prompts, undefined, "int32");
      const S = prompts[0].length;
      const mask = leftPad ? tf.tensor2d(leftPad.map((pad) => Array.from({ length: S }, (_, j) => (j < pad ? 0 : 1)))) : null;
      const before = tf.memory().numTensors;
      const cached = model.generate(ids, { maxNewTokens: 10, eosTokenId: eos, attentionMask: mask, useCache: true });
      const uncached = model.generate(ids, { maxNewTokens: 10, eosTokenId: eos, attentionMask: mask, useCache: false });
      expect(tf.memory().numTensors - before).toBe(2);
      expect(cached.shape[1]).toBeGreaterThan(S);
      expect(cached.arraySync()).toEqual(uncached.arraySync());
      tf.dispose([ids, cached, uncached, ...(mask ? [mask] : [])]);
      model.dispose();
    });
  }

  it("the decode step's logits equal the full forward pass's last position", () => {
    const model = tinyModel();
    const ids = tf.tensor2d([[1, 5, 9, 3, 7, 12]], undefined, "int32");
    const full = model.forward(ids).logits;
    const prefix = model.forward(tf.slice(ids, [0, 0], [1, 5]) as tf.Tensor2D, { useCache: true });
    const step = model.forward(tf.slice(ids, [0, 5], [1, 1]) as tf.Tensor2D, { pastKv: prefix.pastKv, useCache: true });
    expect(maxAbsDiff(tf.slice(full, [0, 5, 0], [1, 1, -1]), step.logits)).toBeLessThan(1e-5);
    model.dispose();
  });
});

describe("model: fast paths compute what the plain ones do", () => {
  it("the fast attention core matches the explicit one, values and gradients", () => {
    const rng = new Rng(5);
    const [B, S, P, Hq, Hkv, D] = [2, 5, 3, 4, 2, 8];
    const q = normals(rng, [B, S, Hq, D]) as tf.Tensor4D;
    const k = normals(rng, [B, P + S, Hkv, D]) as tf.Tensor4D;
    const v = normals(rng, [B, P + S, Hkv, D]) as tf.Tensor4D;
    const keep = tf.tensor2d([[1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 1, 1, 1, 1, 1, 1]]);
    const dy = normals(rng, [B, S, Hq, D]);
    const explicit = (qq: tf.Tensor, kk: tf.Tensor, vv: tf.Tensor) =>
      tf.tidy(() => {
        const byHead = (t: tf.Tensor) => tf.transpose(t, [0, 2, 1, 3]);
        const causal = tf.tensor2d(Array.from({ length: S }, (_, i) => Array.from({ length: P + S }, (_, j) => (j > P + i ? -Infinity : 0))));
        const scores = tf.add(tf.add(tf.div(tf.matMul(byHead(qq), byHead(repeatKv(kk as tf.Tensor4D, Hq / Hkv)), false, true), Math.sqrt(D)), causal), tf.mul(tf.sub(1, tf.reshape(keep, [B, 1, 1, P + S])), -1e9));
        return tf.transpose(tf.matMul(tf.softmax(scores), byHead(repeatKv(vv as tf.Tensor4D, Hq / Hkv))), [0, 2, 1, 3]);
      });
    expect(maxAbsDiff(fastAttentionCore(q, k, v, keep), explicit(q, k, v))).toBeLessThan(1e-5);
    const fastGrads = tf.grads((a, b, c) => tf.sum(tf.mul(fastAttentionCore(a as tf.Tensor4D, b as tf.Tensor4D, c as tf.Tensor4D, keep), dy)))([q, k, v]);
    const plainGrads = tf.grads((a, b, c) => tf.sum(tf.mul(explicit(a, b, c), dy)))([q, k, v]);
    fastGrads.forEach((g, i) => expect(maxAbsDiff(g, plainGrads[i]), `gradient ${i}`).toBeLessThan(1e-5));
  });

  it("the whole model with fast attention matches the reference attention, loss and gradients", () => {
    const fast = tinyModel({ fastAttention: true });
    const plain = tinyModel({ fastAttention: false });
    const ids = tf.tensor2d([[1, 5, 9, 3, 7, 12], [1, 4, 4, 8, 6, 2]], undefined, "int32");
    const grads = (m: MiniMindTS) => tf.variableGrads(() => m.loss(ids, ids).loss, m.trainableVariables());
    const [a, b] = [grads(fast), grads(plain)];
    expect(Math.abs(a.value.dataSync()[0] - b.value.dataSync()[0])).toBeLessThan(1e-5);
    const names = Object.keys(fast.params);
    const pa = fast.trainableVariables().map((v) => a.grads[v.name]);
    const pb = plain.trainableVariables().map((v) => b.grads[v.name]);
    pa.forEach((g, i) => expect(maxAbsDiff(g, pb[i]), names[i]).toBeLessThan(1e-4));
    fast.dispose();
    plain.dispose();
  });

  it("the linear layer is x·Wᵀ + b over the last axis, with gradients ∂x = ∂y·W and ∂W = (∂y)ᵀ·x, on cpu and on wasm", async () => {
    await import("@tensorflow/tfjs-backend-wasm");
    registerWasmKernels();
    const [N, I, O] = [6, 5, 7];
    const rng = new Rng(6);
    const [xs, ws, bs, dys] = [N * I, O * I, O, N * O].map((n) => Array.from(rng.normals(n, 0, 1)));
    // The three products written out as loops, in float64.
    const sum = (n: number, term: (k: number) => number) => Array.from({ length: n }, (_, k) => term(k)).reduce((a, b) => a + b, 0);
    const y = Array.from({ length: N * O }, (_, e) => sum(I, (k) => xs[Math.floor(e / O) * I + k] * ws[(e % O) * I + k]) + bs[e % O]);
    const dx = Array.from({ length: N * I }, (_, e) => sum(O, (o) => dys[Math.floor(e / I) * O + o] * ws[o * I + (e % I)]));
    const dw = Array.from({ length: O * I }, (_, e) => sum(N, (r) => dys[r * O + Math.floor(e / I)] * xs[r * I + (e % I)]));
    for (const backend of ["cpu", "wasm"]) {
      expect(await tf.setBackend(backend)).toBe(true);
      const [x, w, b, dy] = [tf.tensor(xs, [2, 3, I]), tf.tensor2d(ws, [O, I]), tf.tensor1d(bs), tf.tensor(dys, [2, 3, O])];
      const out = linear(x, w, b);
      expect(out.shape).toEqual([2, 3, O]);
      const [gx, gw] = tf.grads((a, c) => tf.sum(tf.mul(linear(a, c as tf.Tensor2D, b), dy)))([x, w]);
      for (const [got, want] of [[out, y], [gx, dx], [gw, dw]] as const) Array.from(got.dataSync()).forEach((v, j) => expect(v, backend).toBeCloseTo(want[j], 5));
      tf.dispose([x, w, b, dy, out, gx, gw]);
    }
    await tf.setBackend("cpu");
  });

  it("on wasm, the embedding gradient (UnsortedSegmentSum) and a model's gradients equal the cpu backend's", async () => {
    await import("@tensorflow/tfjs-backend-wasm");
    registerWasmKernels();
    const run = () => {
      const rng = new Rng(8);
      const table = normals(rng, [10, 4]);
      const ids = tf.tensor2d([[1, 3, 3], [9, 0, 3]], undefined, "int32");
      const weights = normals(rng, [2, 3, 4]);
      const embedding = Array.from(tf.grad((t) => tf.sum(tf.mul(tf.gather(t, ids), weights)))(table).dataSync());
      const model = tinyModel();
      const { grads } = tf.variableGrads(() => model.loss(ids, ids).loss, model.trainableVariables());
      const modelGrads = model.trainableVariables().map((v) => Array.from(grads[v.name].dataSync()));
      model.dispose();
      return { embedding, modelGrads };
    };
    const onCpu = run();
    expect(await tf.setBackend("wasm")).toBe(true);
    try {
      const onWasm = run();
      onWasm.embedding.forEach((x, j) => expect(Math.abs(x - onCpu.embedding[j])).toBeLessThan(1e-6));
      onWasm.modelGrads.forEach((g, i) => g.forEach((x, j) => expect(Math.abs(x - onCpu.modelGrads[i][j])).toBeLessThan(1e-4)));
    } finally {
      await tf.setBackend("cpu");
    }
  });
});

describe("model: safetensors checkpoints", () => {
  const dir = mkdtempSync(join(tmpdir(), "minimind-ts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the format: 8-byte little-endian header length, a JSON header padded to 8 bytes, raw float32 data", () => {
    const bytes = encodeSafetensors({ tensors: { "a.weight": { shape: [2, 2], data: Float32Array.of(1, -2, 3.5, 0) }, b: { shape: [3], data: Float32Array.of(7, 8, 9) } }, metadata: { format: "pt" } });
    const view = new DataView(bytes.buffer);
    const n = Number(view.getBigUint64(0, true));
    expect(n % 8).toBe(0);
    const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + n)).toString("utf8"));
    expect(header["a.weight"]).toEqual({ dtype: "F32", shape: [2, 2], data_offsets: [0, 16] });
    expect(header.b).toEqual({ dtype: "F32", shape: [3], data_offsets: [16, 28] });
    expect(header.__metadata__).toEqual({ format: "pt" });
    expect(view.getFloat32(8 + n + 8, true)).toBe(3.5);
    const back = decodeSafetensors(bytes);
    expect(Array.from(back.tensors["a.weight"].data)).toEqual([1, -2, 3.5, 0]);
    expect(back.tensors.b.shape).toEqual([3]);
  });

  it("writes F16 on request (2 bytes a value, rounded to nearest even) and reads it back as float32", () => {
    // 1 + 2^-11 is halfway between two halves and rounds to the even one (1); 70000 overflows to Infinity.
    const bytes = encodeSafetensors({ tensors: { w: { shape: [5], data: Float32Array.of(1, -2.5, 1 + 2 ** -11, 70000, 2 ** -24) } }, metadata: { config: "{}" } }, "F16");
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect(JSON.parse(Buffer.from(bytes.subarray(8, 8 + n)).toString("utf8")).w).toEqual({ dtype: "F16", shape: [5], data_offsets: [0, 10] });
    expect(bytes.length).toBe(8 + n + 10);
    expect(Array.from(decodeSafetensors(bytes).tensors.w.data)).toEqual([1, -2.5, 1, Infinity, 2 ** -24]);
  });

  it("the GRPO page's shipped F16 start model is exactly what encoding its own values gives back", () => {
    const shipped = new Uint8Array(readFileSync(join(ROOT, "datasets", "checkpoints", "sort-start.safetensors")));
    const file = decodeSafetensors(shipped);
    expect(JSON.parse(file.metadata.config).hiddenSize).toBe(128);
    expect(Buffer.from(encodeSafetensors(file, "F16")).equals(Buffer.from(shipped))).toBe(true);
  });

  it("a saved model loads back with MiniMind's parameter names and the same logits", () => {
    const model = tinyModel({ config: { tieWordEmbeddings: false } });
    const file = join(dir, "tiny.safetensors");
    saveModel(model, file);
    const { tensors, metadata } = decodeSafetensors(readFileSync(file));
    expect(Object.keys(tensors)).toEqual(parameterSpecs(model.config).map((s) => s.name));
    expect(Object.keys(tensors)).toContain("model.layers.1.self_attn.q_norm.weight");
    expect(Object.keys(tensors)).toContain("lm_head.weight");
    expect(JSON.parse(metadata.config).hiddenSize).toBe(16);
    const loaded = loadModel(file);
    const ids = tf.tensor2d([[1, 5, 9, 3]], undefined, "int32");
    expect(maxAbsDiff(model.forward(ids).logits, loaded.forward(ids).logits)).toBe(0);
    model.dispose();
    loaded.dispose();
  });

  it("tied embeddings are stored once, as model.embed_tokens.weight", () => {
    const names = parameterSpecs(miniMindConfig(TINY)).map((s) => s.name);
    expect(names[0]).toBe("model.embed_tokens.weight");
    expect(names).not.toContain("lm_head.weight");
    expect(names).toContain("model.layers.0.mlp.gate_proj.weight");
    expect(parameterSpecs(miniMindConfig({ ...TINY, useMoe: true }))).toContainEqual({ name: "model.layers.0.mlp.experts.3.up_proj.weight", shape: [32, 16], init: "normal" });
  });
});

describe("model: the reference pieces", () => {
  it("are the solutions' own functions, loaded through lib/resolver.ts", () => {
    for (const [name, fn] of Object.entries(REFERENCE_SIGNATURES)) expect(REFERENCE_PIECES[name as keyof ModelPieces], name).toBe(fn);
    expect(referenceProjectQkv).toBe(PROJECT_QKV_SIGNATURE);
  });
});

describe("model: the resolver", () => {
  const workspace = mkdtempSync(join(ROOT, ".selfcheck-resolver-"));
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));
  const put = (lesson: string, file: string, text: string) => {
    mkdirSync(join(workspace, lesson), { recursive: true });
    writeFileSync(join(workspace, lesson, file), text);
  };
  const solution = (lesson: string, file: string) => readFileSync(join(paths.solutions, lesson, file), "utf8");

  put("lesson-9", "rmsnorm.ts", solution("lesson-9", "rmsnorm.ts"));
  put("lesson-10", "loss.ts", generateStub(solution("lesson-10", "loss.ts"), "lesson-10", "loss.ts"));
  put(
    "lesson-13",
    "ffn.ts",
    [
      'import * as tf from "../../lib/tf.js";',
      "export function feedForward(x: tf.Tensor): tf.Tensor { return tf.zerosLike(x); }",
      'export function moeFeedForward(): never { throw new Error("unfinished"); }',
      "",
    ].join("\n"),
  );

  it("takes a passing exercise, the reference for an untouched stub, a missing file or a failing exercise", async () => {
    const { pieces, choices } = await resolvePieces({ exercisesDir: workspace });
    const source = Object.fromEntries(choices.map((c) => [c.name, c.source]));
    expect(source).toEqual({
      sampleNextToken: "solutions",
      rmsNorm: "exercises",
      causalLmLoss: "solutions",
      attention: "solutions",
      ropeFrequencies: "solutions",
      generate: "solutions",
      feedForward: "solutions",
      moeFeedForward: "solutions",
    });
    expect(choices.find((c) => c.name === "causalLmLoss")?.why).toBe("not started");
    expect(choices.find((c) => c.name === "feedForward")?.why).toMatch(/^fails \d+ of \d+ cases$/);
    expect(choices.find((c) => c.name === "rmsNorm")?.why).toMatch(/^passes (\d+)\/\1 cases$/);
    expect(pieces.rmsNorm).not.toBe(REFERENCE_PIECES.rmsNorm);
    expect(pieces.attention).toBe(REFERENCE_PIECES.attention);
  });

  it("--use-reference forces the reference even for a passing exercise", async () => {
    const { pieces, choices } = await resolvePieces({ exercisesDir: workspace, useReference: ["9"] });
    expect(choices.find((c) => c.name === "rmsNorm")).toMatchObject({ source: "solutions", why: "--use-reference" });
    expect(pieces.rmsNorm).toBe(REFERENCE_PIECES.rmsNorm);
  });
});

describe("a run's functions, resolved at once", () => {
  it("names every missing function of a run in one message, with the lessons to finish", async () => {
    // No reference solutions and the stubs as the learner's work: a student edition before lesson 3.
    const noSolutions = mkdtempSync(join(tmpdir(), "no-solutions-"));
    const run = resolveRun(runningPieces({ useMoe: false }), { maskedGae: "lesson-23", clipGradNorm: "lesson-14" }, { exercisesDir: paths.exercises, solutionsDir: noSolutions });
    const err = await run.then(() => undefined, (e: unknown) => e);
    rmSync(noSolutions, { recursive: true });
    expect(err).toBeInstanceOf(LessonsNotFinishedError);
    const missing = (err as LessonsNotFinishedError).missing.map((m) => m.exercise);
    // The pieces this config runs and the run's own functions, and not moeFeedForward (a dense model).
    expect(missing).toEqual(["rmsNorm", "attention", "ropeFrequencies", "feedForward", "generate", "sampleNextToken", "maskedGae", "clipGradNorm"]);
    expect((err as Error).message).toMatch(/^this run needs 8 functions/);
    expect((err as Error).message).toContain("finish lessons 3, 9, 11, 12, 13, 14, 23 first");
  });

  it("gives the pieces it resolved to the model and the rest of the run's functions beside them", async () => {
    const { pieces, fns, choices } = await resolveRun<{ maskedGae: unknown }>(["rmsNorm"], { maskedGae: "lesson-23" }, { useReference: ["all"] });
    expect(choices.map((c) => c.name)).toEqual(["rmsNorm", "maskedGae"]);
    expect(Object.keys(fns)).toEqual(["maskedGae"]);
    expect(pieces.attention).toBe(REFERENCE_PIECES.attention);
    expect(typeof fns.maskedGae).toBe("function");
  });
});
