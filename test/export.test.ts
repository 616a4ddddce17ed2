/**
 * Conversion (`npm run export`, MiniMind's scripts/convert_model.py): the exported folder loads into
 * MiniMind's own MiniMindForCausalLM (model/model_minimind.py at d65ef2c, in Debian's PyTorch, with
 * strict=True) and gives the same logits as MiniMindTS. Skipped, with the reason, when
 * /usr/bin/python3 has no torch or MiniMind's model file cannot be had (tools/serve/minimind-source.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as tf from "../lib/tf.js";
import { loadModel } from "../lib/model/checkpoint.js";
import { exportModel } from "../lib/serve/export.js";
import { TINY_CHAT_CHECKPOINT } from "../lib/serve/checkpoints.js";
import { minimindSource } from "../tools/serve/minimind-source.js";
import { ROOT } from "../grader/engine/paths.js";

const PYTHON = process.env.COURSE_PYTHON ?? "/usr/bin/python3";
const torchReady = existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import torch"]).status === 0;
const source = torchReady ? await minimindSource() : { missing: `no torch in ${PYTHON} (apt-get install -y python3-torch)` };
const skip = "missing" in source ? source.missing : "";
if (skip) console.warn(`export.test.ts: loading the export in MiniMind's PyTorch model skipped: ${skip}`);

const OUT = mkdtempSync(join(tmpdir(), "minimind-export-"));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe("npm run export", () => {
  it("writes config.json with MiniMind's field names and the four files", async () => {
    const r = await exportModel(TINY_CHAT_CHECKPOINT, OUT);
    expect(r.files.map((f) => f.slice(OUT.length + 1))).toEqual(["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"]);
    const config = JSON.parse(readFileSync(join(OUT, "config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toMatchObject({ model_type: "minimind", hidden_size: 64, num_hidden_layers: 2, vocab_size: 259, num_attention_heads: 4, num_key_value_heads: 2, max_position_embeddings: 1024, tie_word_embeddings: true });
    const tok = JSON.parse(readFileSync(join(OUT, "tokenizer.json"), "utf8")) as { model: { vocab: Record<string, number> }; added_tokens: Array<{ content: string; id: number }> };
    expect(tok.added_tokens.map((t) => [t.content, t.id])).toEqual([["<|endoftext|>", 0], ["<|im_start|>", 1], ["<|im_end|>", 2]]);
    expect(Object.keys(tok.model.vocab)).toHaveLength(259);
  });

  it.skipIf(skip !== "")("loads into MiniMind's MiniMindForCausalLM (strict) and gives MiniMindTS's logits", () => {
    const ids = [[1, 75, 104, 111, 111, 114, 2, 13, 1, 100]];
    const run = spawnSync(PYTHON, [join(ROOT, "tools", "serve", "load_export.py"), OUT, (source as { dir: string }).dir, JSON.stringify(ids)], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const py = JSON.parse(run.stdout) as { logits: number[]; shape: number[]; parameters: number; missing: string[]; unexpected: string[] };
    expect(py.missing).toEqual([]);
    expect(py.unexpected).toEqual([]);
    const model = loadModel(TINY_CHAT_CHECKPOINT);
    const ts = tf.tidy(() => Array.from(model.forward(tf.tensor2d(ids, undefined, "int32")).logits.dataSync()));
    expect(py.parameters).toBe(model.trainableVariables().reduce((n, v) => n + v.size, 0));
    model.dispose();
    expect(py.shape).toEqual([1, ids[0].length, 259]);
    const worst = Math.max(...ts.map((v, i) => Math.abs(v - py.logits[i])));
    expect(worst).toBeLessThan(1e-4);
  });
});
