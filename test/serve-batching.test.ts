/**
 * Continuous batching (lib/serve/batcher.ts, issue 26): rows that join and leave between decoding
 * steps, shifted to the right of a shared cache (widened when a longer one joins, its common
 * padding cut off when one leaves), produce the same greedy tokens as each prompt decoded alone by
 * lesson 12's `generate`, and the cache is never wider than the longest row needs; a row at the end
 * of the RoPE table ends there. Then the server: concurrent requests, batched, get the replies that one-at-a-time
 * serving gives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { initBackend } from "../lib/backend.js";
import { miniMindConfig } from "../lib/model/config.js";
import { MiniMindTS } from "../lib/model/model.js";
import { initialParameters } from "../lib/model/params.js";
import { argmax, ContinuousBatcher, type RowEnd } from "../lib/serve/batcher.js";
import { createModelServer, type ModelServer } from "../lib/serve/app.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import { DEMO_EXCHANGES, DEMO_TOOLS } from "../lib/serve/demo.js";

/** A seeded model small enough to step by hand (std 0.6: greedy choices depend on the whole context), with a 24-position RoPE table. */
function smallModel(): MiniMindTS {
  const config = miniMindConfig({ vocabSize: 32, hiddenSize: 16, numHiddenLayers: 2, numAttentionHeads: 4, numKeyValueHeads: 2, intermediateSize: 32, maxPositionEmbeddings: 24, eosTokenId: 31 });
  const weights = initialParameters(config, 7, 0.6);
  const model = new MiniMindTS(config, weights);
  tf.dispose(Object.values(weights));
  return model;
}

/** Greedy tokens of `prompt` decoded alone with lesson 12's generate (the model's own loop, KV cache on). */
function alone(model: MiniMindTS, prompt: number[], maxNewTokens: number): number[] {
  return tf.tidy(() => {
    const out = model.generate(tf.tensor2d([prompt], undefined, "int32"), { maxNewTokens, eosTokenId: model.config.eosTokenId });
    return Array.from(out.dataSync()).slice(prompt.length);
  });
}

describe("the batcher", () => {
  beforeAll(async () => {
    await initBackend("cpu");
  });

  it("rows joining at different steps, of different lengths (longer ones widening the cache), leaving (the cache cut to the longest row) and preempted, give each prompt's greedy tokens alone", () => {
    const model = smallModel();
    const tensorsBefore = tf.memory().numTensors;
    const prompts = [[1, 2, 3, 4, 5, 6, 7], [8, 9], [10, 11, 12, 13], [5, 4, 3, 2, 1, 0, 9, 8, 7, 6], [20, 21, 22], [3]];
    const budgets = [12, 15, 6, 9, 14, 20];
    const got = new Map<string, number[]>();
    const ends = new Map<string, RowEnd>();
    let peak = 0;
    const batcher = new ContinuousBatcher(model, 3, {
      token: (id, token) => got.get(id)!.push(token),
      end: (id, reason) => ends.set(id, reason),
    });
    const add = (i: number) => {
      got.set(`r${i}`, []);
      batcher.add({ id: `r${i}`, promptIds: prompts[i], maxNewTokens: budgets[i], pick: argmax });
    };
    add(0);
    add(1);
    // The rest arrive while the first ones decode; step i adds prompt i (prompt 3, 10 long, is longer than the batch then).
    let [widened, cut, preempted] = [false, false, false];
    for (let step = 0; batcher.busy || step < prompts.length; step++) {
      if (step >= 2 && step < prompts.length) add(step);
      const before = batcher.width;
      batcher.step();
      peak = Math.max(peak, batcher.size.running);
      // Every running row holds its tokens less the last in the cache: T is the longest of those, no more
      // (after a preemption every row waits, and the cache is empty).
      const running = [...got].filter(([id, t]) => t.length > 0 && !ends.has(id)).map(([id, t]) => prompts[Number(id.slice(1))].length + t.length - 1);
      if (batcher.size.running > 0) expect(batcher.width, `step ${step}`).toBe(Math.max(...running));
      else preempted ||= running.length > 0;
      if (before > 0 && batcher.width > before + 1) widened = true;
      if (batcher.size.running > 0 && batcher.width < before) cut = true;
      expect(step).toBeLessThan(500);
    }
    expect({ widened, cut, preempted }).toEqual({ widened: true, cut: true, preempted: true });
    expect(peak).toBe(3); // rows really shared steps
    // Every row's cache was freed as it left: nothing is left over once the batch is empty.
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    prompts.forEach((p, i) => {
      const expected = alone(model, p, budgets[i]);
      expect(got.get(`r${i}`), `prompt ${i}`).toEqual(expected);
      expect(ends.get(`r${i}`)).toBe(expected.includes(31) ? "eos" : "length");
    });
    batcher.dispose();
    model.dispose();
  });

  it("a row ends ('length') when its next token would fall past the RoPE table, as no generation can go on there", () => {
    const model = smallModel();
    const got: number[] = [];
    let end: RowEnd | undefined;
    const batcher = new ContinuousBatcher(model, 2, { token: (_, t) => got.push(t), end: (_, r) => (end = r) });
    // 20 prompt tokens, a budget of 30: only 5 more fit the 24 positions (the fifth is never decoded).
    batcher.add({ id: "long", promptIds: Array.from({ length: 20 }, (_, i) => i % 30), maxNewTokens: 30, pick: () => 1 });
    for (let step = 0; batcher.busy; step++) {
      batcher.step();
      expect(batcher.width).toBeLessThanOrEqual(24);
      expect(step).toBeLessThan(50);
    }
    expect([got.length, end]).toEqual([5, "length"]);
    model.dispose();
  });

  it("a cancelled row leaves at the next step; the others carry on unchanged", () => {
    const model = smallModel();
    const got: Record<string, number[]> = { a: [], b: [] };
    const ends: Record<string, RowEnd> = {};
    const batcher = new ContinuousBatcher(model, 4, { token: (id, t) => got[id].push(t), end: (id, r) => (ends[id] = r) });
    batcher.add({ id: "a", promptIds: [1, 2, 3], maxNewTokens: 10, pick: argmax });
    batcher.add({ id: "b", promptIds: [4, 5], maxNewTokens: 10, pick: argmax });
    batcher.step();
    batcher.step();
    batcher.cancel("a");
    while (batcher.busy) batcher.step();
    expect(ends.a).toBe("cancelled");
    expect(got.a.length).toBeLessThan(10);
    expect(got.b).toEqual(alone(model, [4, 5], 10));
    model.dispose();
  });
});

describe("the server, batched", { timeout: 180_000 }, () => {
  let batched: ModelServer;
  let single: ModelServer;
  const urls: Record<string, string> = {};
  beforeAll(async () => {
    batched = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"], maxBatch: 4 });
    single = await createModelServer({ checkpoint: TINY_CHAT_CHECKPOINT, useReference: ["all"], maxBatch: 1 });
    for (const [name, s] of [["batched", batched], ["single", single]] as const) {
      await s.app.listen({ port: 0, host: "127.0.0.1" });
      urls[name] = `http://127.0.0.1:${(s.app.server.address() as { port: number }).port}`;
    }
  }, 120_000);
  afterAll(async () => {
    await batched?.app.close();
    await single?.app.close();
  });

  const requests = [
    ...DEMO_EXCHANGES.map((e) => ({ messages: [{ role: "user", content: e.user }], ...(e.tools ? { tools: DEMO_TOOLS } : {}), open_thinking: e.thinking })),
    { messages: [{ role: "user", content: "Tell me a long story" }], max_tokens: 40 },
    { messages: [{ role: "user", content: "Hi" }], max_tokens: 40 },
  ];
  const ask = async (base: string, body: object) => {
    const r = await fetch(`${base}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "tiny-chat", temperature: 0, ...body }) });
    const json = (await r.json()) as { choices: Array<{ message: { content?: string | null; tool_calls?: Array<{ id: string }> }; finish_reason: string }>; usage: object };
    const message = json.choices[0].message;
    // Tool call ids carry the time: compare everything else.
    for (const call of message.tool_calls ?? []) call.id = "call";
    return { message, finish: json.choices[0].finish_reason, usage: json.usage };
  };

  it("concurrent requests, arriving apart, get the greedy replies that one-at-a-time serving gives", async () => {
    const one: Array<Awaited<ReturnType<typeof ask>>> = [];
    for (const body of requests) one.push(await ask(urls.single, body));
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, batched.engine.load.running)), 5);
    const together = await Promise.all(requests.map(async (body, i) => (await new Promise((r) => setTimeout(r, 15 * i)), ask(urls.batched, body))));
    clearInterval(watch);
    expect(together).toEqual(one);
    expect(peak).toBeGreaterThan(1);
    // The memorised exchanges came back as memorised, batched too.
    DEMO_EXCHANGES.forEach((e, i) => {
      if (!e.tools && !e.thinking) expect(together[i].message.content).toBe(e.reply);
    });
  });
});
