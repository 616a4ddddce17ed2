/**
 * The GRPO page's part of the browser build (build.ts calls it, into the same folder, after the
 * training page): grpo.html, grpo.json (grpo-protocol.ts's GrpoManifest), the start model
 * (datasets/checkpoints/sort-start.safetensors, copied as it is), the data the run reads (the
 * course tokenizer and rl.jsonl's / rl-heldout.jsonl's sort prompts) and the published references
 * of the lessons it needs (train-build.ts's writeReferences: the files the training page uses).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { MiniMindConfig } from "../../lib/model/config.js";
import { loadTasks, RL_HELD_OUT, RL_TRAIN } from "../../lib/rl/tasks.js";
import { COURSE_TOKENIZER_PATH } from "../../lib/tokenizer.js";
import { ROOT } from "../../grader/engine/paths.js";
import { decodeHalfSafetensors } from "./grpo-checkpoint.js";
import { grpoFunctionHomes } from "./grpo-plan.js";
import type { GrpoManifest } from "./grpo-protocol.js";
import { writeReferences, writeWasmBackendFiles } from "./train-build.js";

/** The GRPO worker and page, as entry points of build.ts's worker and page bundles. */
export const GRPO_WORKER_ENTRY = { "grpo-worker": join(ROOT, "tools", "browser", "grpo-worker.ts") };
export const GRPO_PAGE_ENTRY = { "grpo-page": join(ROOT, "tools", "browser", "grpo-page.ts") };

/** The start model the page trains (tools/browser/make-grpo-start.ts writes it; datasets/README.md says how it was made). */
export const GRPO_START_MODEL = join(ROOT, "datasets", "checkpoints", "sort-start.safetensors");

/** The config stored in the start model's metadata (MiniMind's, as lib/rl/run.ts reads a --from file's). */
export function startModelConfig(path = GRPO_START_MODEL): MiniMindConfig {
  const config = decodeHalfSafetensors(new Uint8Array(readFileSync(path))).metadata.config;
  if (!config) throw new Error(`${relative(ROOT, path)} has no model config in its metadata`);
  return JSON.parse(config) as MiniMindConfig;
}

const GRPO_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GRPO on the sort task in the browser</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 system-ui, sans-serif; max-width: 72rem; margin: 1.5rem auto; padding: 0 1rem; }
pre { background: #f6f6f6; padding: .75rem; white-space: pre-wrap; }
.note { color: #555; font-size: 13px; }
#missing { color: #a40000; font-weight: 600; white-space: pre-wrap; }
.chart svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>GRPO on the sort task in the browser</h1>
<p class="note">Lesson 24's GRPO (<code>npm run train -- grpo</code>'s step, MiniMind's train_grpo.py) in a Web Worker:
G samples of each "Sort 47, 41, 75." prompt from the course's small start model (the tiny model after a short sort
SFT, datasets/checkpoints/sort-start.safetensors), a reward of 1 for the exact answer, advantages within each
group, and one update a step with β·KL to the frozen start. Held-out exact match (greedy, new questions) is
measured before, every few steps and at the end. The model runs your functions where their lesson passes in this
browser's workspace, the reference where this site publishes it, and otherwise says which lesson to finish first.
Self-study only: progress here lives in this browser and proves nothing to anyone.</p>
<p><label for="backend">Backend</label> <select id="backend"><option value="best">best available</option></select>
<label for="steps">Steps</label> <input id="steps" type="number" min="1" value="30" size="6">
<button id="start" type="button">Train</button> <button id="stop" type="button" disabled>Stop</button></p>
<pre id="backends" class="note"></pre>
<pre id="status"></pre>
<p id="missing"></p>
<pre id="whose"></pre>
<p id="rate"></p>
<div id="chart" class="chart"></div>
<div id="loss-chart" class="chart"></div>
<pre id="samples"></pre>
<script type="module" src="./grpo-page.js"></script>
</body>
</html>
`;

/**
 * Writes the GRPO page's files into `out` (the worker and page scripts come from build.ts's bundles,
 * GRPO_WORKER_ENTRY and GRPO_PAGE_ENTRY); `published` decides which references ship.
 */
export async function writeGrpoPage(out: string, published: readonly string[], log: (line: string) => void = () => undefined): Promise<GrpoManifest> {
  const functions = grpoFunctionHomes(startModelConfig());
  const manifest: GrpoManifest = { version: 1, worker: "grpo-worker.js", data: "grpo/data.json", model: "grpo/start.safetensors", functions, references: {}, withheld: {} };
  const needed = [...new Set(Object.values(functions))];
  await writeReferences(out, needed, published, manifest, (line) => log(`GRPO page: ${line}`));
  mkdirSync(join(out, "grpo"), { recursive: true });
  const tokenizer = `/${relative(ROOT, COURSE_TOKENIZER_PATH)}`;
  const data = {
    files: { [tokenizer]: readFileSync(COURSE_TOKENIZER_PATH, "utf8") },
    train: (await loadTasks(RL_TRAIN, ["sort"])).records,
    heldOut: (await loadTasks(RL_HELD_OUT, ["sort"])).records,
  };
  writeFileSync(join(out, manifest.data), JSON.stringify(data));
  copyFileSync(GRPO_START_MODEL, join(out, manifest.model));
  writeWasmBackendFiles(out);
  writeFileSync(join(out, "grpo.html"), GRPO_HTML);
  writeFileSync(join(out, "grpo.json"), JSON.stringify(manifest, null, 2));
  const shipped = Object.keys(manifest.references);
  log(`GRPO page: references of ${shipped.join(", ") || "no lesson"} (published); ${needed.filter((l) => !shipped.includes(l)).join(", ") || "none"} must pass in the page`);
  return manifest;
}
