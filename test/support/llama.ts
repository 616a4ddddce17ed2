/**
 * Both sides of the GGUF and LoRA export tests: greedy text from llama.cpp (tools/llama/generate.mjs
 * in its own process, node-llama-cpp from tools/llama/node_modules) and the course's own greedy
 * text from MiniMindTS (lesson 12's generate, argmax at every step).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as tf from "../../lib/tf.js";
import type { MiniMindTS } from "../../lib/model/model.js";
import { ROOT } from "../../grader/engine/paths.js";

export const LLAMA_DIR = join(ROOT, "tools", "llama");

/** Why the llama.cpp tests cannot run here ("" when they can): tools/ci/llama.sh installs it. */
export const llamaMissing = existsSync(join(LLAMA_DIR, "node_modules", "node-llama-cpp", "package.json"))
  ? ""
  : "tools/llama/node_modules is absent (install llama.cpp for the tests with: bash tools/ci/llama.sh)";

export interface Greedy {
  promptIds: number[];
  ids: number[];
  text: string;
}

/** llama.cpp's tokens of each prompt and its greedy continuation (≤ maxTokens, stopping at end of generation). */
export function llamaGreedy(model: string, prompts: readonly string[], maxTokens: number, contextSize = 1024): Greedy[] {
  const run = spawnSync(process.execPath, ["generate.mjs"], {
    cwd: LLAMA_DIR,
    input: JSON.stringify({ model, prompts, maxTokens, contextSize }),
    encoding: "utf8",
    timeout: 240_000,
  });
  if (run.status !== 0) throw new Error(`llama.cpp failed (${run.status ?? run.signal}): ${run.stderr}`);
  return (JSON.parse(run.stdout.trim().split("\n").pop()!) as { results: Greedy[] }).results;
}

/** The course's greedy continuation of `promptIds` (≤ maxTokens; the end-of-sequence token not included). */
export function courseGreedy(model: MiniMindTS, promptIds: readonly number[], maxTokens: number): number[] {
  const out = tf.tidy(() => model.generate(tf.tensor2d([[...promptIds]], undefined, "int32"), { maxNewTokens: maxTokens }));
  const ids = Array.from(out.dataSync()).slice(promptIds.length);
  out.dispose();
  const eos = ids.indexOf(model.config.eosTokenId);
  return eos < 0 ? ids : ids.slice(0, eos);
}
