/**
 * `npm run export -- --format gguf` run in a real llama.cpp (node-llama-cpp 3.21.1's prebuilt
 * binaries, tools/llama/): the file loads, llama.cpp tokenizes the course's prompts to the course's
 * ids, and its greedy text equals the course's own greedy text (MiniMindTS, lesson 12's generate)
 * for the committed chat model and for a model trained here for a few steps with the course's BPE
 * tokenizer. Skipped, with the reason, only when tools/llama/node_modules is absent (CI installs it:
 * tools/ci/llama.sh).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../grader/engine/paths.js";
import * as tf from "../lib/tf.js";
import { loadModel, saveModel } from "../lib/model/checkpoint.js";
import { miniMindConfig } from "../lib/model/config.js";
import { MiniMindTS } from "../lib/model/model.js";
import { initialParameters } from "../lib/model/params.js";
import { resolveFunction } from "../lib/resolver.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import type { RenderChat } from "../lib/serve/completion.js";
import { DEMO_EXCHANGES, DEMO_TOOLS } from "../lib/serve/demo.js";
import { exportModel } from "../lib/serve/export.js";
import { tokenizerFor } from "../lib/serve/tokenizer.js";
import { toFloat16Bits } from "../lib/model/float16.js";
import { courseGreedy, llamaGreedy, llamaMissing } from "./support/llama.js";

if (llamaMissing) console.warn(`export-gguf.test.ts: llama.cpp runs skipped: ${llamaMissing}`);

const WORK = mkdtempSync(join(tmpdir(), "minimind-gguf-"));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** The course's greedy text and llama.cpp's for each prompt, ids and text side by side. */
function compare(model: MiniMindTS, checkpoint: string, gguf: string, prompts: string[], maxTokens: number) {
  const tok = tokenizerFor(model.config.vocabSize, checkpoint);
  const llama = llamaGreedy(gguf, prompts, maxTokens);
  return prompts.map((p, i) => {
    const promptIds = tok.encode(p);
    const ids = courseGreedy(model, promptIds, maxTokens);
    return { prompt: p, course: { promptIds, ids, text: tok.decode(ids) }, llama: { promptIds: llama[i].promptIds, ids: llama[i].ids, text: llama[i].text } };
  });
}

describe("GGUF export: the header llama.cpp reads", () => {
  it("starts with GGUF v3 and names the qwen3 architecture, the gpt2 tokenizer and MiniMind's chat template", async () => {
    const r = await exportModel(TINY_CHAT_CHECKPOINT, join(WORK, "header"), { format: "gguf" });
    const bytes = readFileSync(r.files[0]);
    expect(bytes.subarray(0, 4).toString("ascii")).toBe("GGUF");
    expect(bytes.readUInt32LE(4)).toBe(3);
    expect(Number(bytes.readBigUInt64LE(8))).toBe(1 + 2 * 11 + 1); // token_embd, 11 per block, output_norm (tied: no output.weight)
    const text = bytes.toString("latin1");
    for (const key of ["general.architecture", "qwen3.attention.layer_norm_rms_epsilon", "qwen3.rope.freq_base", "tokenizer.ggml.merges", "tokenizer.chat_template", "blk.1.attn_k_norm.weight"]) expect(text).toContain(key);
    expect(text).not.toContain("output.weight\u0000");
  });

  it("rounds float16 to nearest even, with subnormals and overflow", () => {
    const got = Array.from(toFloat16Bits(new Float32Array([1, -2, 65504, 70000, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -24, 2 ** -26, 0.1])));
    expect(got).toEqual([0x3c00, 0xc000, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001, 0x0000, 0x2e66]);
  });
});

describe.skipIf(llamaMissing !== "")("GGUF export run in llama.cpp (node-llama-cpp)", () => {
  let renderChat: RenderChat;
  beforeAll(async () => {
    renderChat = (await resolveFunction<RenderChat>("lesson-4", "renderChat", { useReference: true })).fn;
  });

  it("the committed chat model: llama.cpp's tokens and greedy replies are the course's on every demo prompt (f32)", async () => {
    const gguf = (await exportModel(TINY_CHAT_CHECKPOINT, join(WORK, "chat"), { format: "gguf" })).files[0];
    const prompts = DEMO_EXCHANGES.map((ex) => renderChat([{ role: "user", content: ex.user }], { tools: ex.tools ? DEMO_TOOLS : null, addGenerationPrompt: true, openThinking: ex.thinking }));
    const model = loadModel(TINY_CHAT_CHECKPOINT);
    const rows = compare(model, TINY_CHAT_CHECKPOINT, gguf, prompts, 120);
    model.dispose();
    for (const row of rows) {
      expect(row.llama.promptIds, row.prompt).toEqual(row.course.promptIds);
      expect(row.llama.ids, row.prompt).toEqual(row.course.ids);
      expect(row.llama.text, row.prompt).toBe(row.course.text);
    }
    // The model learned these replies: the comparison is over real text, not noise.
    expect(rows.map((r) => r.course.text)).toEqual(DEMO_EXCHANGES.map((ex) => ex.reply));
  }, 300_000);

  it("the committed chat model in float16: the same greedy replies", async () => {
    const gguf = (await exportModel(TINY_CHAT_CHECKPOINT, join(WORK, "chat16"), { format: "gguf", dtype: "f16" })).files[0];
    const prompts = DEMO_EXCHANGES.slice(0, 3).map((ex) => renderChat([{ role: "user", content: ex.user }], { tools: null, addGenerationPrompt: true, openThinking: false }));
    expect(llamaGreedy(gguf, prompts, 120).map((r) => r.text)).toEqual(DEMO_EXCHANGES.slice(0, 3).map((ex) => ex.reply));
  }, 300_000);

  it("a mixture-of-experts model (MiniMind's default: one expert a token): llama.cpp's qwen3moe gives the course's greedy text", async () => {
    const config = miniMindConfig({ vocabSize: 259, hiddenSize: 32, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 128, useMoe: true, numExperts: 4, numExpertsPerTok: 1 });
    const weights = initialParameters(config, 3, 0.3); // a wide init: decisive argmaxes, varied routing
    const model = new MiniMindTS(config, weights);
    tf.dispose(Object.values(weights));
    const checkpoint = join(WORK, "moe.safetensors");
    saveModel(model, checkpoint);
    const gguf = (await exportModel(checkpoint, join(WORK, "moe-gguf"), { format: "gguf" })).files[0];
    const rows = compare(model, checkpoint, gguf, ["Hello there", "What is 2 + 3?", "The quick brown fox"], 40);
    model.dispose();
    for (const row of rows) expect(row.llama.ids, row.prompt).toEqual(row.course.ids);
    expect(rows.some((r) => r.course.ids.length > 20)).toBe(true);
    const twoExperts = miniMindConfig({ ...config, numExpertsPerTok: 2 });
    const two = MiniMindTS.init(twoExperts, 1);
    saveModel(two, join(WORK, "moe2.safetensors"));
    two.dispose();
    await expect(exportModel(join(WORK, "moe2.safetensors"), join(WORK, "moe2-gguf"), { format: "gguf" })).rejects.toThrow(/num_experts_per_tok 1/);
  }, 300_000);

  it("a model trained here (course BPE tokenizer, merges and all): llama.cpp's tokens and greedy text are the course's", async () => {
    const out = join(WORK, "fresh");
    const train = spawnSync(
      process.execPath,
      ["--import", "tsx", "tools/train/cli.ts", "pretrain", "--config", "micro", "--steps", "4", "--max-seq-len", "64", "--use-reference", "all", "--data", join(ROOT, "datasets", "tiny-corpus.txt"), "--out", out],
      { cwd: ROOT, env: { ...process.env, COURSE_BACKEND: "cpu", FORCE_COLOR: "0" }, encoding: "utf8", timeout: 240_000 },
    );
    expect(train.status, train.stderr).toBe(0);
    const checkpoint = join(out, readdirSync(out).find((f) => /^pretrain_\d+\.safetensors$/.test(f))!);
    const gguf = (await exportModel(checkpoint, join(WORK, "fresh-gguf"), { format: "gguf" })).files[0];
    const prompts = ["One morning the sun was out, and", "Nora had 12 stamps", "The digits of 296", "小红觉得很累", "Twice 194 is"];
    const model = loadModel(checkpoint);
    expect(model.config.vocabSize).toBeGreaterThan(259);
    const rows = compare(model, checkpoint, gguf, prompts, 64 - 16);
    model.dispose();
    for (const row of rows) {
      expect(row.course.promptIds.length, row.prompt).toBeLessThan(16);
      expect(row.llama.promptIds, row.prompt).toEqual(row.course.promptIds);
      expect(row.llama.ids, row.prompt).toEqual(row.course.ids);
      expect(row.llama.text, row.prompt).toBe(row.course.text);
    }
    expect(rows.some((r) => r.course.ids.length > 10)).toBe(true);
  }, 400_000);
});
