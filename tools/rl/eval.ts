/**
 * Held-out exact match of a weights file on the RL tasks, greedy and without left padding (prompts
 * batched by length), by kind, and on the held-out prompts that are not also in the training file.
 *
 *   node --import tsx tools/rl/eval.ts WEIGHTS [--task sort|count,length|all] [--max-new-tokens 12]
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { initBackend } from "../../lib/backend.js";
import { MiniMindTS } from "../../lib/model/model.js";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { decodeSafetensors } from "../../lib/model/safetensors.js";
import { preloadLessonFunctions } from "../../lib/preloaded.js";
import { connectGrading, resolveFunction } from "../../lib/resolver.js";
import { evaluate, type RlContext } from "../../lib/rl/run.js";
import { RL_BASE } from "../../lib/rl/settings.js";
import { loadTasks, parseTaskKinds, RL_HELD_OUT, RL_TRAIN } from "../../lib/rl/tasks.js";
import { loadWeights } from "../../lib/train/checkpoint.js";
import { shown } from "../../lib/train/data.js";
import { TrainError } from "../../lib/train/errors.js";
import { decodeText, trainTokenizer } from "../../lib/train/tokenizer.js";
import * as tf from "../../lib/tf.js";

try {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { task: { type: "string" }, "max-new-tokens": { type: "string" } } });
  if (positionals.length !== 1) throw new TrainError("usage: node --import tsx tools/rl/eval.ts WEIGHTS [--task KINDS] [--max-new-tokens N]");
  const path = resolve(positionals[0]);
  const config = JSON.parse(decodeSafetensors(new Uint8Array(readFileSync(path))).metadata.config ?? "null") as MiniMindConfig | null;
  if (!config) throw new TrainError(`${shown(path)} has no model config in its metadata (not a course weights file)`);
  await initBackend("wasm");
  // The tokenizer may run the learner's lesson-4 functions (a student edition): resolve them first.
  connectGrading(new URL("../loop/resolver-grading.ts", import.meta.url).href);
  await preloadLessonFunctions();
  const tok = trainTokenizer();
  const weights = loadWeights(path, config, "its own config");
  const tensors = Object.fromEntries(Object.entries(weights).map(([n, t]) => [n, tf.tensor(t.data, t.shape, "float32")]));
  const model = new MiniMindTS(config, tensors);
  const kinds = parseTaskKinds(values.task ?? "sort");
  const renderChat = (await resolveFunction<(m: Array<{ role: string; content: string }>, o?: { addGenerationPrompt?: boolean }) => string>("lesson-4", "renderChat", { useReference: true })).fn;
  const train = await loadTasks(RL_TRAIN, kinds);
  const held = await loadTasks(RL_HELD_OUT, kinds);
  const settings = { ...RL_BASE, task: kinds, maxNewTokens: values["max-new-tokens"] ? Number(values["max-new-tokens"]) : RL_BASE.maxNewTokens };
  const ctx = { tok, settings, train: train.records, promptIds: (t) => tok.encode(renderChat([{ role: "user", content: t.question }], { addGenerationPrompt: true })), decode: (ids) => decodeText(tok, ids) } as Pick<RlContext, "tok" | "settings" | "train" | "promptIds" | "decode">;
  const e = evaluate(ctx as RlContext, model, held.records);
  console.log(`${shown(path)}: held-out exact match ${(100 * e.accuracy).toFixed(1)}% of ${held.records.length} (${kinds.join(", ")}), greedy, no padding`);
  console.log(`  not also in the training file: ${e.unseen}${e.unseenAccuracy === null ? "" : `, ${(100 * e.unseenAccuracy).toFixed(1)}% right`}`);
  console.log(`  by kind: ${Object.entries(e.byKind).map(([k, v]) => `${k} ${v.correct}/${v.total}`).join(", ")}`);
} catch (err) {
  if (!(err instanceof TrainError)) throw err;
  console.error(`rl eval: ${err.message}`);
  process.exitCode = 2;
}
