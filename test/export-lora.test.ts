/**
 * LoRA adapters on `npm run export` and `npm run serve` (`--lora`, MiniMind's --lora_weight and
 * merge_lora): the export holds W + (α/r)·B·A for every adapted weight (checked here by plain
 * loops) and nothing else changed; the server answers with the adapted model's greedy text; an
 * adapter given as the checkpoint, an adapter that does not fit the base and a full checkpoint
 * given as the adapter are each refused in one line that says what to do. With llama.cpp
 * installed, the merged GGUF generates the adapted model's greedy text too.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { ROOT } from "../grader/engine/paths.js";
import { Rng } from "../lib/random.js";
import { miniMindConfig, type MiniMindConfig } from "../lib/model/config.js";
import { initialParameters } from "../lib/model/params.js";
import { LoraModel, resolveLoraFunctions, saveAdapters, type LoraFunctions } from "../lib/model/lora.js";
import { loadSafetensors, saveSafetensors, type StoredTensor } from "../lib/model/safetensors.js";
import { resolveFunction } from "../lib/resolver.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import type { RenderChat } from "../lib/serve/completion.js";
import { DEMO_EXCHANGES } from "../lib/serve/demo.js";
import { exportModel } from "../lib/serve/export.js";
import { byteChatTokenizer } from "../lib/serve/tokenizer.js";
import { courseGreedy, llamaGreedy, llamaMissing } from "./support/llama.js";

const WORK = mkdtempSync(join(tmpdir(), "minimind-lora-export-"));
const ADAPTER = join(WORK, "lora_demo.safetensors");
const WRONG = join(WORK, "lora_other_base.safetensors");
const RANK = 4;
const env = { ...process.env, COURSE_BACKEND: "cpu", FORCE_COLOR: "0" };
const base = loadSafetensors(TINY_CHAT_CHECKPOINT);
const config = miniMindConfig(JSON.parse(base.metadata.config!) as Partial<MiniMindConfig>);
let prompts: string[];
let loraReplies: string[];
let baseReplies: string[];

/** A rank-r LoRA on `c` with lesson 19's applyLora and every B drawn at random (a fresh adapter's B is 0: no effect). */
function adapterModel(fns: LoraFunctions, c: MiniMindConfig, weights: Record<string, tf.Tensor>, seed: number): LoraModel {
  const lora = new LoraModel(c, weights, fns, { rank: RANK, seed });
  const rng = new Rng(seed);
  for (const [name, v] of Object.entries(lora.adapters)) if (name.endsWith(".lora.B.weight")) v.assign(tf.tensor(rng.normals(v.size, 0, 0.3), v.shape));
  return lora;
}

beforeAll(async () => {
  const { fns } = await resolveLoraFunctions({ useReference: true });
  const renderChat = (await resolveFunction<RenderChat>("lesson-4", "renderChat", { useReference: true })).fn;
  const weights = Object.fromEntries(Object.entries(base.tensors).map(([n, t]) => [n, tf.tensor(t.data, t.shape)]));
  const lora = adapterModel(fns, config, weights, 5);
  saveAdapters(lora, ADAPTER);
  const tok = byteChatTokenizer();
  prompts = DEMO_EXCHANGES.slice(0, 3).map((ex) => renderChat([{ role: "user", content: ex.user }], { tools: null, addGenerationPrompt: true, openThinking: false }));
  loraReplies = prompts.map((p) => tok.decode(courseGreedy(lora.model, tok.encode(p), 60)));
  baseReplies = DEMO_EXCHANGES.slice(0, 3).map((ex) => ex.reply);
  lora.dispose();
  tf.dispose(Object.values(weights));
  // The same kind of adapter, on a model of another width: it cannot fit the chat model.
  const other = miniMindConfig({ vocabSize: 259, hiddenSize: 32, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, maxPositionEmbeddings: 64 });
  const otherWeights = initialParameters(other, 1);
  const wrong = adapterModel(fns, other, otherWeights, 6);
  saveAdapters(wrong, WRONG);
  wrong.dispose();
  tf.dispose(Object.values(otherWeights));
}, 120_000);
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** W + (α/r)·B·A with plain loops: W [out, in], A [r, in], B [out, r]. */
function mergedByHand(w: StoredTensor, a: StoredTensor, b: StoredTensor, alpha: number): Float32Array {
  const [out, inner] = w.shape;
  const r = a.shape[0];
  const res = new Float32Array(w.data);
  for (let i = 0; i < out; i++)
    for (let j = 0; j < inner; j++) {
      let s = 0;
      for (let k = 0; k < r; k++) s += b.data[i * r + k] * a.data[k * inner + j];
      res[i * inner + j] += (alpha / r) * s;
    }
  return res;
}

function cli(script: string, args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", join("tools", "serve", script), ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 120_000 });
}

/** The one-line answer to bad input: exit 1, one line on stderr, no stack trace. */
function expectOneLineRefusal(r: ReturnType<typeof cli>, ...parts: string[]): void {
  expect(r.status, r.stdout + r.stderr).toBe(1);
  const lines = r.stderr.trim().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  for (const p of parts) expect(lines[0]).toContain(p);
}

describe("npm run export -- --lora", () => {
  it("holds W + (α/r)·B·A for every adapted weight and the base's values everywhere else", async () => {
    const out = join(WORK, "merged");
    await exportModel(TINY_CHAT_CHECKPOINT, out, { lora: ADAPTER, useReference: true });
    const merged = loadSafetensors(join(out, "model.safetensors")).tensors;
    const adapter = loadSafetensors(ADAPTER);
    const alpha = (JSON.parse(adapter.metadata.lora!) as { alpha: number }).alpha;
    let adapted = 0;
    for (const [name, w] of Object.entries(base.tensors)) {
      const module = name.slice(0, -".weight".length);
      const a = adapter.tensors[`${module}.lora.A.weight`];
      const got = merged[name].data;
      if (!a) {
        expect(Array.from(got), name).toEqual(Array.from(w.data));
        continue;
      }
      adapted++;
      const want = mergedByHand(w, a, adapter.tensors[`${module}.lora.B.weight`], alpha);
      const worst = Math.max(...Array.from(got, (v, i) => Math.abs(v - want[i])));
      expect(worst, name).toBeLessThan(1e-5);
      expect(Math.max(...Array.from(got, (v, i) => Math.abs(v - w.data[i]))), name).toBeGreaterThan(1e-3);
    }
    expect(adapted).toBe(Object.keys(adapter.tensors).length / 2);
  });

  it("refuses an adapter given as --checkpoint, naming --lora, in one line", () => {
    expectOneLineRefusal(cli("export-cli.ts", ["--checkpoint", ADAPTER, "--out", join(WORK, "x")]), "LoRA adapters only", `--lora ${ADAPTER}`);
  });

  it("refuses an adapter that does not fit the base model, saying which weight and shapes", () => {
    expectOneLineRefusal(cli("export-cli.ts", ["--lora", WRONG, "--use-reference", "all", "--out", join(WORK, "x")]), "does not fit the base model", "self_attn", "[64,64]");
  });

  it("refuses an adapter whose recorded training model differs from the base, even when its shapes fit", () => {
    const adapter = loadSafetensors(ADAPTER);
    const recorded = join(WORK, "lora_deeper_base.safetensors");
    saveSafetensors(recorded, { tensors: adapter.tensors, metadata: { format: "pt", config: JSON.stringify({ ...config, numHiddenLayers: 4 }) } });
    expectOneLineRefusal(cli("export-cli.ts", ["--lora", recorded, "--use-reference", "all", "--out", join(WORK, "x")]), "does not fit the base model", "numHiddenLayers 4, the base has 2");
  });

  it("refuses a full checkpoint given as --lora", () => {
    expectOneLineRefusal(cli("export-cli.ts", ["--lora", TINY_CHAT_CHECKPOINT, "--out", join(WORK, "x")]), "is not a LoRA adapter file");
  });

  it.skipIf(llamaMissing !== "")("as GGUF: llama.cpp generates the adapted model's greedy text", async () => {
    const gguf = (await exportModel(TINY_CHAT_CHECKPOINT, join(WORK, "gguf"), { format: "gguf", lora: ADAPTER, useReference: true })).files[0];
    expect(gguf.endsWith("lora_demo.gguf")).toBe(true);
    expect(llamaGreedy(gguf, prompts, 60).map((r) => r.text)).toEqual(loraReplies);
  }, 300_000);
});

describe("npm run serve -- --lora", () => {
  it("the adapter changes what the model says (the test below would pass without a merge otherwise)", () => {
    expect(loraReplies).not.toEqual(baseReplies);
  });

  it("serves the merged model: greedy replies are the adapted model's, under the adapter's name", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tools/serve/cli.ts", "--lora", ADAPTER, "--port", "0", "--use-reference", "all"], { cwd: ROOT, env });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /Serving on (http:\/\/\S+)\//.exec(out);
          if (m) resolve(m[1]);
        });
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
      expect(models.data.map((m) => m.id)).toContain("lora_demo");
      for (const [i, ex] of DEMO_EXCHANGES.slice(0, 3).entries()) {
        const r = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "lora_demo", messages: [{ role: "user", content: ex.user }], temperature: 0, max_tokens: 60 }),
        });
        const body = (await r.json()) as { choices: Array<{ message: { content: string } }> };
        expect(r.status, JSON.stringify(body)).toBe(200);
        expect(body.choices[0].message.content, ex.user).toBe(loraReplies[i]);
      }
    } finally {
      child.kill("SIGTERM");
    }
  }, 180_000);

  it("refuses an adapter given as --checkpoint, naming --lora, in one line", () => {
    expectOneLineRefusal(cli("cli.ts", ["--checkpoint", ADAPTER, "--port", "0"]), "LoRA adapters only", `--lora ${ADAPTER}`);
  });

  it("refuses an adapter that does not fit the base model", () => {
    expectOneLineRefusal(cli("cli.ts", ["--lora", WRONG, "--port", "0", "--use-reference", "all"]), "does not fit the base model");
  });
});
