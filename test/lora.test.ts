/**
 * LoRA and distillation on MiniMindTS (lib/model/lora.ts, lib/model/distill.ts): training moves the
 * adapters and nothing else, a merged model gives the logits of base + adapter, adapter files hold
 * only adapters and round-trip, and a distillation step leaves the teacher untouched.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { miniMindConfig, type MiniMindConfig } from "../lib/model/config.js";
import { MiniMindTS } from "../lib/model/model.js";
import { initialParameters } from "../lib/model/params.js";
import { linear } from "../lib/model/linear.js";
import { saveModel } from "../lib/model/checkpoint.js";
import { LoraModel, loadAdapters, resolveLoraFunctions, saveAdapters } from "../lib/model/lora.js";
import { distillStep, resolveDistillFunctions } from "../lib/model/distill.js";
import { stepOn } from "../lib/model/step.js";
import { AdamW } from "../lib/model/train.js";
import { Rng } from "../lib/random.js";
import { loraLinear } from "../solutions/lesson-18/lora.js";
import { clipGradNorm } from "../solutions/lesson-14/clip.js";

await initBackend("cpu");

const TINY: Partial<MiniMindConfig> = { vocabSize: 32, hiddenSize: 16, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, intermediateSize: 32, maxPositionEmbeddings: 64 };
const config = miniMindConfig(TINY);
const { fns } = await resolveLoraFunctions({ useReference: true });
const dir = mkdtempSync(join(tmpdir(), "lora-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function batch(seed: number, B = 3, T = 10): { ids: tf.Tensor2D; labels: tf.Tensor2D } {
  const rng = new Rng(seed);
  const ids = Array.from({ length: B * T }, () => rng.int(3, 31));
  return { ids: tf.tensor2d(ids, [B, T], "int32"), labels: tf.tensor2d(ids, [B, T], "int32") };
}

const snapshot = (vars: Record<string, tf.Variable>) => Object.fromEntries(Object.entries(vars).map(([n, v]) => [n, Float32Array.from(v.dataSync() as Float32Array)]));
const maxAbsDiff = (a: tf.Tensor, b: tf.Tensor) => tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]);

function loraModel(seed = 3): LoraModel {
  const base = initialParameters(config, seed, 0.3);
  const lora = new LoraModel(config, base, fns, { rank: 4, alpha: 8, seed });
  tf.dispose(Object.values(base));
  return lora;
}

function train(lora: LoraModel, steps: number): void {
  const opt = new AdamW(lora.trainable);
  for (let s = 0; s < steps; s++) {
    const { ids, labels } = batch(100 + s);
    stepOn(lora.trainable, opt, () => lora.model.loss(ids, labels).loss, 1e-2, clipGradNorm);
    tf.dispose([ids, labels]);
  }
}

describe("LoRA on MiniMindTS", () => {
  it("adapts q_proj and o_proj of every layer (the square ones) and trains only the adapters", () => {
    const lora = loraModel();
    expect(Object.keys(lora.adapters)).toEqual([0, 1].flatMap((l) => ["q_proj", "o_proj"].flatMap((p) => ["A", "B"].map((m) => `model.layers.${l}.self_attn.${p}.lora.${m}.weight`))));
    expect(lora.trainable).toEqual(Object.values(lora.adapters));
    expect(lora.counts.trainableCount).toBe(2 * 2 * (4 * 16 + 16 * 4));
    lora.dispose();
  });

  it("starts as the base model exactly (B = 0)", () => {
    const lora = loraModel();
    const base = initialParameters(config, 3, 0.3);
    const plain = new MiniMindTS(config, base);
    const { ids } = batch(1);
    expect(maxAbsDiff(lora.model.forward(ids).logits, plain.forward(ids).logits)).toBe(0);
    tf.dispose([...Object.values(base), ids]);
    plain.dispose();
    lora.dispose();
  });

  it("training steps change every adapter and leave every base weight bit-identical", () => {
    const lora = loraModel();
    const baseBefore = snapshot(lora.model.params);
    const adaptersBefore = snapshot(lora.adapters);
    train(lora, 3);
    for (const [n, v] of Object.entries(snapshot(lora.model.params))) expect(v, n).toEqual(baseBefore[n]);
    for (const [n, v] of Object.entries(snapshot(lora.adapters))) expect(v, n).not.toEqual(adaptersBefore[n]);
    lora.dispose();
  });

  it("the merged model gives the logits of base + adapter, and so does loraLinear layer by layer", () => {
    const lora = loraModel();
    train(lora, 3);
    const merged = lora.merged(fns);
    const { ids } = batch(7);
    expect(maxAbsDiff(lora.model.forward(ids).logits, merged.forward(ids).logits)).toBeLessThan(1e-5);
    const x = tf.tensor2d(new Rng(5).normals(6 * 16), [6, 16]);
    const name = "model.layers.1.self_attn.q_proj";
    const a = lora.adapters[`${name}.lora.A.weight`] as tf.Tensor2D;
    const b = lora.adapters[`${name}.lora.B.weight`] as tf.Tensor2D;
    const viaPath = loraLinear(x, lora.model.params[`${name}.weight`] as tf.Tensor2D, a, b, lora.alpha);
    const viaMerged = linear(x, merged.params[`${name}.weight`] as tf.Tensor2D);
    expect(maxAbsDiff(viaPath, viaMerged)).toBeLessThan(1e-5);
    expect(maxAbsDiff(b, tf.zerosLike(b))).toBeGreaterThan(0);
    tf.dispose([ids, x, viaPath, viaMerged]);
    merged.dispose();
    lora.dispose();
  });

  it("an adapter file holds only the adapters, is a small fraction of a checkpoint, and reloads to the same logits", () => {
    const lora = loraModel();
    train(lora, 2);
    const adapterPath = join(dir, "lora.safetensors");
    const fullPath = join(dir, "full.safetensors");
    saveAdapters(lora, adapterPath);
    saveModel(lora.model, fullPath);
    const loaded = loadAdapters(adapterPath);
    expect(Object.keys(loaded.adapters)).toEqual(Object.keys(lora.adapters));
    expect([loaded.rank, loaded.alpha]).toEqual([4, 8]);
    expect(statSync(adapterPath).size).toBeLessThan(statSync(fullPath).size / 4);
    const again = new LoraModel(config, lora.model.params, fns, { rank: loaded.rank, alpha: loaded.alpha, adapters: loaded.adapters });
    const { ids } = batch(9);
    expect(maxAbsDiff(again.model.forward(ids).logits, lora.model.forward(ids).logits)).toBe(0);
    tf.dispose([ids, ...Object.values(loaded.adapters)]);
    again.dispose();
    lora.dispose();
  });

  it("a file that is not an adapter file is refused with a message", () => {
    const plain = MiniMindTS.init(config, 1);
    const path = join(dir, "not-lora.safetensors");
    saveModel(plain, path);
    expect(() => loadAdapters(path)).toThrow(/not a LoRA adapter file/);
    plain.dispose();
  });
});

describe("distillation on MiniMindTS", () => {
  it("a step moves the student, never the teacher, and reports ce and distill", async () => {
    const { fns: d } = await resolveDistillFunctions({ useReference: true });
    const teacher = MiniMindTS.init(config, 11);
    const student = MiniMindTS.init(miniMindConfig({ ...TINY, hiddenSize: 8, numAttentionHeads: 2, numKeyValueHeads: 1 }), 12);
    const teacherBefore = snapshot(teacher.params);
    const studentBefore = snapshot(student.params);
    const opt = new AdamW(student.trainableVariables());
    const { ids, labels } = batch(4);
    const r = distillStep(student, teacher, opt, ids, labels, 1e-2, d, { alpha: 0.5, temperature: 1.5 });
    expect(Number.isFinite(r.loss) && Number.isFinite(r.extras.ce) && Number.isFinite(r.extras.distill)).toBe(true);
    expect(r.loss).toBeCloseTo(0.5 * r.extras.ce + 0.5 * r.extras.distill, 5);
    for (const [n, v] of Object.entries(snapshot(teacher.params))) expect(v, n).toEqual(teacherBefore[n]);
    expect(Object.entries(snapshot(student.params)).some(([n, v]) => v.some((x, i) => x !== studentBefore[n][i]))).toBe(true);
    tf.dispose([ids, labels]);
    teacher.dispose();
    student.dispose();
  });
});

describe("the lora and distill stages (lib/train/stages/lora.ts, distill.ts) through the stage hooks", async () => {
  const { buildStageModel, stageLoss } = await import("../lib/train/stage-hooks.js");
  const { default: loraStage } = await import("../lib/train/stages/lora.js");
  const { default: distillStage } = await import("../lib/train/stages/distill.js");
  const { resolveFunctions } = await import("../lib/resolver.js");
  const { byteTokenizer } = await import("../lib/train/tokenizer.js");
  const ctxOf = async (stage: { functions?: Record<string, string> }, fromPath?: string) =>
    ({
      tok: byteTokenizer(),
      config,
      configName: "test",
      settings: { seed: 5, maxSeqLen: 10 },
      fromPath,
      fns: (await resolveFunctions<Record<string, unknown>>(stage.functions ?? {}, { useReference: true })).fns,
      log: () => {},
    }) as never;

  it("lora: from --from weights, only the adapters train, and the weights file holds only adapters", async () => {
    const ctx = await ctxOf(loraStage);
    const base = initialParameters(config, 3, 0.3);
    const built = buildStageModel(loraStage, ctx, config, base, {}, 1);
    tf.dispose(Object.values(base));
    expect(built.trainable.length).toBe(8);
    const before = snapshot(built.model.params);
    const opt = new AdamW(built.trainable);
    const { ids, labels } = batch(2);
    for (let s = 0; s < 2; s++) stepOn(built.trainable, opt, () => stageLoss(loraStage, ctx, built.model, ids, labels), 1e-2, clipGradNorm);
    for (const [n, v] of Object.entries(snapshot(built.model.params))) expect(v, n).toEqual(before[n]);
    expect(Object.keys(built.exportWeights!()).every((n) => n.includes(".lora."))).toBe(true);
    // A resume: the named variables (base + adapters) rebuild the same model.
    const again = buildStageModel(loraStage, ctx, config, built.named, {}, 1);
    expect(maxAbsDiff(again.model.forward(ids).logits, built.model.forward(ids).logits)).toBe(0);
    tf.dispose([ids, labels]);
    again.dispose();
    built.dispose();
  });

  it("distill: the loss mixes labels and the --from teacher, and a run without --from is refused", async () => {
    const teacherModel = MiniMindTS.init(config, 11);
    const path = join(dir, "teacher.safetensors");
    saveModel(teacherModel, path);
    const ctx = await ctxOf(distillStage, path);
    const student = buildStageModel(distillStage, ctx, miniMindConfig({ ...TINY, hiddenSize: 8, numAttentionHeads: 2, numKeyValueHeads: 1 }), undefined, {}, 4);
    const opt = new AdamW(student.trainable);
    const { ids, labels } = batch(6);
    const r = stepOn(student.trainable, opt, () => stageLoss(distillStage, ctx, student.model, ids, labels), 1e-2, clipGradNorm);
    expect(Number.isFinite(r.loss)).toBe(true);
    expect(() => stageLoss(distillStage, { ...(ctx as object), fromPath: undefined } as never, student.model, ids, labels)).toThrow(/needs a teacher/);
    tf.dispose([ids, labels]);
    student.dispose();
    teacherModel.dispose();
  });
});
