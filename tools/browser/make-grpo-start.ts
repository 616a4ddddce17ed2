/**
 * Makes datasets/checkpoints/sort-start.safetensors, the start model of the GRPO page (grpo.html):
 * a task-SFT weights file (the README's RL start: the tiny model pretrained, then the first 300
 * steps of the sort task SFT; datasets/README.md has the commands) stored as F16
 * (lib/model/safetensors.ts), then read back and measured as the page will run it: held-out exact match
 * on rl-heldout.jsonl's 200 new sort questions, greedy.
 *
 *   node --import tsx tools/browser/make-grpo-start.ts --from runs/grpo-page/sft/full_sft_128.safetensors [--out FILE]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import * as tf from "../../lib/tf.js";
import { initBackend } from "../../lib/backend.js";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { MiniMindTS } from "../../lib/model/model.js";
import { decodeSafetensors, encodeSafetensors } from "../../lib/model/safetensors.js";
import { resolveFunction } from "../../lib/resolver.js";
import type { CommonFunctions, RlContext } from "../../lib/rl/context.js";
import { evaluate } from "../../lib/rl/evaluate.js";
import { RL_BASE } from "../../lib/rl/settings.js";
import { loadTasks, RL_HELD_OUT, RL_TRAIN } from "../../lib/rl/tasks.js";
import { decodeText, trainTokenizer } from "../../lib/train/tokenizer.js";
import { GRPO_START_MODEL } from "./grpo-build.js";

const { values } = parseArgs({ options: { from: { type: "string" }, out: { type: "string", default: GRPO_START_MODEL } } });
if (!values.from) {
  console.error("usage: node --import tsx tools/browser/make-grpo-start.ts --from WEIGHTS [--out FILE]");
  process.exit(2);
}
if (!existsSync(resolve(values.from))) {
  console.error(`--from ${values.from}: no such weights file`);
  process.exit(2);
}
const source = decodeSafetensors(new Uint8Array(readFileSync(resolve(values.from))));
if (!source.metadata.config) {
  console.error(`${values.from} has no model config in its metadata (not a course weights file)`);
  process.exit(2);
}
const bytes = encodeSafetensors({ tensors: source.tensors, metadata: { config: source.metadata.config } }, "F16");
writeFileSync(values.out!, bytes);
console.log(`wrote ${values.out} (${(bytes.length / 1024).toFixed(0)} KiB, F16) from ${values.from}`);

// Read back and measured as the page runs it.
await initBackend("wasm");
const stored = decodeSafetensors(new Uint8Array(readFileSync(values.out!)));
const config = JSON.parse(stored.metadata.config) as MiniMindConfig;
const model = new MiniMindTS(config, Object.fromEntries(Object.entries(stored.tensors).map(([n, t]) => [n, tf.tensor(t.data, t.shape, "float32")])));
const tok = trainTokenizer();
const renderChat = (await resolveFunction<CommonFunctions["renderChat"]>("lesson-4", "renderChat", { useReference: true })).fn;
const train = await loadTasks(RL_TRAIN, ["sort"]);
const held = await loadTasks(RL_HELD_OUT, ["sort"]);
const ctx = { tok, settings: RL_BASE, train: train.records, promptIds: (t) => tok.encode(renderChat([{ role: "user", content: t.question }], { addGenerationPrompt: true })), decode: (ids) => decodeText(tok, ids) } as Pick<RlContext, "tok" | "settings" | "train" | "promptIds" | "decode">;
const e = evaluate(ctx as RlContext, model, held.records);
console.log(`held-out exact match (greedy, the F16 weights): ${(100 * e.accuracy).toFixed(1)}% of ${held.records.length} sort questions, ${e.unseen} of them not in rl.jsonl`);
for (const s of e.samples.slice(0, 3)) console.log(`  ${JSON.stringify(s.question)} → ${JSON.stringify(s.response)} (expected ${JSON.stringify(s.answer)})`);
