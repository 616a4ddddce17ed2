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
import { decodeSafetensors } from "../../lib/model/safetensors.js";
import { loadTasks, RL_HELD_OUT, RL_TRAIN } from "../../lib/rl/tasks.js";
import { COURSE_TOKENIZER_PATH } from "../../lib/tokenizer.js";
import { ROOT } from "../../grader/engine/paths.js";
import { grpoFunctionHomes } from "./grpo-plan.js";
import type { GrpoManifest } from "./grpo-protocol.js";
import { runPageHtml } from "./run-page-html.js";
import { writeReferences, writeWasmBackendFiles } from "./train-build.js";

/** The GRPO worker and page, as entry points of build.ts's worker and page bundles. */
export const GRPO_WORKER_ENTRY = { "grpo-worker": join(ROOT, "tools", "browser", "grpo-worker.ts") };
export const GRPO_PAGE_ENTRY = { "grpo-page": join(ROOT, "tools", "browser", "grpo-page.ts") };

/** The start model the page trains (tools/browser/make-grpo-start.ts writes it; datasets/README.md says how it was made). */
export const GRPO_START_MODEL = join(ROOT, "datasets", "checkpoints", "sort-start.safetensors");

/** The config stored in the start model's metadata (MiniMind's, as lib/rl/run.ts reads a --from file's). */
export function startModelConfig(path = GRPO_START_MODEL): MiniMindConfig {
  const config = decodeSafetensors(new Uint8Array(readFileSync(path))).metadata.config;
  if (!config) throw new Error(`${relative(ROOT, path)} has no model config in its metadata`);
  return JSON.parse(config) as MiniMindConfig;
}

const GRPO_HTML = runPageHtml({
  title: "GRPO on the sort task in the browser",
  intro: `Lesson 24's GRPO (<code>npm run train -- grpo</code>'s step, MiniMind's train_grpo.py) in a Web Worker:
G samples of each "Sort 47, 41, 75." prompt from the course's small start model (the tiny model after a short sort
SFT, datasets/checkpoints/sort-start.safetensors), a reward of 1 for the exact answer, advantages within each
group, and one update a step with β·KL to the frozen start. Held-out exact match (greedy, new questions) is
measured before, every few steps and at the end. The model runs your functions where their lesson passes in this
browser's workspace, the reference where this site publishes it, and otherwise says which lesson to finish first.
Self-study only: progress here lives in this browser and proves nothing to anyone.`,
  steps: 30,
  charts: ["chart", "loss-chart"],
  script: "./grpo-page.js",
});

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
